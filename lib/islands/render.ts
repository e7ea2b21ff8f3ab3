/**
 * Server rendering of pages with islands. While a page renders, a preact
 * `options.vnode` hook swaps each island component for a wrapper that renders
 * it inside a `<div data-island>` marker and records its props. After the
 * render, the props are serialised once for the page and a boot script that
 * imports only the islands used is appended. A page without islands ships no JS.
 */
import { type ComponentType, createContext, h, options, type VNode } from "preact";
import { useContext } from "preact/hooks";
import { renderToString } from "preact-render-to-string";
import type { IslandAssets } from "@/lib/http/types.ts";
import { stringify } from "./serialize.ts";
import { ISLAND_ATTR, ISLAND_INDEX_ATTR, PROPS_SCRIPT_ID } from "./markers.ts";

interface RenderState {
  islands: Map<ComponentType<unknown>, string>;
  used: Set<string>;
  props: unknown[];
  names: string[];
}

let current: RenderState | null = null;
// Set while the marker creates the island's own vnode, which must not be wrapped again.
let bypass = false;
const wrappers = new Map<ComponentType<unknown>, ComponentType<Record<string, unknown>>>();
/**
 * True below an island's marker. An island rendered inside another one (the approval
 * card inside the message list) is hydrated by its parent, so it gets no marker of its
 * own; it still counts as used, so the page imports its bundle before the parent
 * hydrates and the parent finds it loaded.
 */
const InsideIsland = createContext(false);

function wrapperFor(
  component: ComponentType<unknown>,
  name: string,
): ComponentType<Record<string, unknown>> {
  let wrapper = wrappers.get(component);
  if (!wrapper) {
    wrapper = function IslandMarker(props: Record<string, unknown>) {
      const state = current!;
      if (useContext(InsideIsland)) {
        state.used.add(name);
        bypass = true;
        try {
          return h(component, props);
        } finally {
          bypass = false;
        }
      }
      const index = state.props.length;
      state.props.push(props);
      state.names.push(name);
      state.used.add(name);
      bypass = true;
      let inner: VNode;
      try {
        inner = h(component, props);
      } finally {
        bypass = false;
      }
      return h(
        InsideIsland.Provider,
        { value: true },
        h("div", {
          [ISLAND_ATTR]: name,
          [ISLAND_INDEX_ATTR]: index,
          style: "display:contents",
        }, inner),
      );
    };
    wrappers.set(component, wrapper);
  }
  return wrapper;
}

const previousVnodeHook = options.vnode;
options.vnode = (vnode: VNode) => {
  if (current && !bypass && typeof vnode.type === "function") {
    const name = current.islands.get(vnode.type as ComponentType<unknown>);
    if (name) {
      vnode.type = wrapperFor(vnode.type as ComponentType<unknown>, name) as typeof vnode.type;
    }
  }
  previousVnodeHook?.(vnode);
};

/** The result of rendering a page: the body HTML and the tags islands need. */
export interface RenderedPage {
  html: string;
  islandsUsed: string[];
}

/** Options of `renderDocument`. */
export interface RenderOptions {
  /** CSP nonce put on every inline `<script>` the renderer adds. */
  nonce?: string;
}

/**
 * Renders `vnode` to a full HTML document. `islands` maps island components to
 * their names; `assets` says which files hold their bundles (null before the
 * first build: islands then render as static HTML and a warning is logged).
 */
export function renderDocument(
  vnode: VNode,
  islands: Record<string, ComponentType<unknown>>,
  assets: IslandAssets | null,
  { nonce }: RenderOptions = {},
): RenderedPage {
  const state: RenderState = {
    islands: new Map(Object.entries(islands).map(([name, c]) => [c, name])),
    used: new Set(),
    props: [],
    names: [],
  };
  const outer = current;
  current = state;
  let body: string;
  try {
    body = renderToString(vnode);
  } finally {
    current = outer;
  }
  let scripts = "";
  if (state.used.size > 0) {
    const json = stringify(state.props, (path) => {
      const [index, ...rest] = path.replace(/^\[(\d+)\]\.?/, "$1.").split(".");
      return `island "${state.names[Number(index)]}", prop "${rest.join(".") || "(props)"}"`;
    });
    if (assets) scripts = bootScript(json, [...state.used], assets, nonce);
    else {console.warn(
        "Island bundles are not built: run `deno task build`. Pages render without JS.",
      );}
  }
  const html = "<!DOCTYPE html>" +
    (scripts ? body.replace(/<\/body>(?![\s\S]*<\/body>)/, `${scripts}</body>`) : body);
  return { html, islandsUsed: [...state.used] };
}

function bootScript(
  propsJson: string,
  used: string[],
  assets: IslandAssets,
  nonce: string | undefined,
): string {
  const preload = new Set<string>([assets.boot]);
  const imports: string[] = [];
  const entries: string[] = [];
  used.forEach((name, i) => {
    const file = assets.islands[name];
    if (!file) throw new Error(`Island "${name}" has no bundle: run \`deno task build\`.`);
    preload.add(file);
    for (const chunk of assets.preload[name] ?? []) preload.add(chunk);
    imports.push(`import i${i} from "/_islands/${file}";`);
    entries.push(`${JSON.stringify(name)}:i${i}`);
  });
  const links = [...preload].map((f) => `<link rel="modulepreload" href="/_islands/${f}">`).join(
    "",
  );
  // The nonce is base64 (no quotes or angle brackets); the attribute is safe as is.
  const n = nonce ? ` nonce="${nonce}"` : "";
  return `${links}<script id="${PROPS_SCRIPT_ID}" type="application/json"${n}>${propsJson}</script>` +
    `<script type="module"${n}>import { boot } from "/_islands/${assets.boot}";${
      imports.join("")
    }boot({${entries.join(",")}});</script>`;
}
