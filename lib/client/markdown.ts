/**
 * Markdown for answers (markdown-it): raw HTML disabled, links open in a new
 * tab with rel="noopener noreferrer nofollow", images never load by themselves
 * (retrieved content must not leak the conversation through an image URL —
 * they render as links), and `[N]` citations link to the answer's source chips.
 * Math (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) goes to a renderer given by the
 * caller (lib/client/math.ts, loaded only when an answer has math); without it,
 * the TeX shows as code. Isomorphic: the server renders saved chats with it,
 * the island answers.
 */
import MarkdownIt from "markdown-it";
import { tex } from "@mdit/plugin-tex";

/** A configured markdown-it instance. */
type Markdown = InstanceType<typeof MarkdownIt>;

/** Renders markdown for one message; `citeHref(n)` links a citation or returns null for an unknown one. */
export type RenderMarkdown = (text: string, citeHref: (n: number) => string | null) => string;

/** Labels the renderer writes into the HTML. */
export interface MarkdownLabels {
  /** Names citations for screen readers ("Fonte", "Source"). */
  source: string;
  /** The copy button of code blocks. */
  copyCode: string;
}

/** TeX to HTML (MathML); `display` for a block formula. */
export type RenderMath = (tex: string, display: boolean) => string;

/** Math options of `createMarkdown`. */
interface MathOptions {
  math?: RenderMath;
  onMathWithoutRenderer?: () => void;
}

/** Builds the renderer. `onMathWithoutRenderer` fires when math was met and `math` is absent. */
export function createMarkdown(
  labels: MarkdownLabels = { source: "Fonte", copyCode: "Copiar código" },
  mathOptions: MathOptions = {},
): RenderMarkdown {
  let currentCite: (n: number) => string | null = () => null;
  const cite = () => currentCite;
  const build = (withTex: boolean): Markdown => {
    const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
    if (withTex) useTex(md, mathOptions);
    codeBlocks(md, labels);
    safeLinks(md);
    citations(md, labels, cite);
    return md;
  };
  const withMath = build(true);
  // Without math: the TeX plugin looks for the closing delimiter to the end of the text for
  // every opener, which is quadratic on an answer full of them (a model can echo a visitor).
  let withoutMath: Markdown | null = null;

  return (text, citeHref) => {
    currentCite = citeHref;
    try {
      const md = mathOpeners(text) > MAX_MATH_OPENERS ? (withoutMath ??= build(false)) : withMath;
      return md.render(text);
    } finally {
      currentCite = () => null;
    }
  };
}

/** Math through the caller's renderer; without one, the TeX shows as code. */
function useTex(md: Markdown, { math, onMathWithoutRenderer }: MathOptions): void {
  const esc = md.utils.escapeHtml;
  md.use(tex, {
    delimiters: "all",
    render: (content: string, display: boolean) => {
      if (math) return math(content, display);
      onMathWithoutRenderer?.();
      const code = `<code class="math-src">${esc(content)}</code>`;
      return display ? `<pre class="math-src">${code}</pre>\n` : code;
    },
  });
}

/** Code blocks get a header with their language and a copy button (wired by the island). */
function codeBlocks(md: Markdown, labels: MarkdownLabels): void {
  const esc = md.utils.escapeHtml;
  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    const lang = token.info.trim().split(/\s+/)[0].replace(/[^\w+-]/g, "");
    const cls = lang ? ` class="language-${esc(lang)}"` : "";
    return `<div class="code-block"><div class="code-head"><span>${esc(lang || "code")}</span>` +
      `<button type="button" class="copy-code" data-copy-code>${
        esc(labels.copyCode)
      }</button></div>` +
      `<pre><code${cls}>${esc(token.content)}</code></pre></div>\n`;
  };
}

/** Links open in a new tab without referrer; images become links and never load by themselves. */
function safeLinks(md: Markdown): void {
  md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer nofollow");
    return self.renderToken(tokens, idx, options);
  };

  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx];
    const src = String(token.attrGet("src") ?? "");
    const alt = String(token.children?.map((c) => c.content).join("") || src);
    return `<a class="image-link" href="${
      md.utils.escapeHtml(src)
    }" target="_blank" rel="noopener noreferrer nofollow">🖼 ${md.utils.escapeHtml(alt)}</a>`;
  };
}

/** `[N]` right after text: a citation, linked by the render's `citeHref` (dropped when unknown). */
function citations(
  md: Markdown,
  labels: MarkdownLabels,
  cite: () => (n: number) => string | null,
): void {
  const esc = md.utils.escapeHtml;
  // Not a link reference: markdown-it tries links first.
  md.inline.ruler.after("link", "citation", (state, silent) => {
    const src = state.src;
    const pos = state.pos;
    if (src.charCodeAt(pos) !== 0x5b /* [ */) return false;
    const m = /^\[(\d{1,3})\]/.exec(src.slice(pos));
    if (!m) return false;
    if (!silent) {
      const token = state.push("citation", "", 0);
      token.meta = { n: Number(m[1]) };
    }
    state.pos += m[0].length;
    return true;
  });
  md.renderer.rules.citation = (tokens, idx) => {
    const n = (tokens[idx].meta as { n: number }).n;
    const href = cite()(n);
    if (!href) return "";
    return `<a class="cite" href="${md.utils.escapeHtml(href)}" data-cite="${n}" aria-label="${
      esc(labels.source)
    } ${n}">${n}</a>`;
  };
}

/** Most `\(`, `\[` and `$` openers an answer's math is looked for in (see `createMarkdown`). */
export const MAX_MATH_OPENERS = 512;

/** How many `\(`, `\[` and `$` a text holds (one pass). */
function mathOpeners(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x24 /* $ */) n++;
    else if (c === 0x5c /* \ */ && (text[i + 1] === "(" || text[i + 1] === "[")) n++;
  }
  return n;
}
