/**
 * Browser side of islands: reads the page's serialised props and hydrates every
 * `[data-island]` element with its component. Bundled for the browser only.
 */
import { type ComponentType, h, hydrate } from "preact";
import { signal } from "@preact/signals";
import { parse } from "../serialize.ts";
import { ISLAND_ATTR, ISLAND_INDEX_ATTR, PROPS_SCRIPT_ID } from "../markers.ts";

/** Hydrates the islands present on the page with the given components. */
export function boot(components: Record<string, ComponentType<Record<string, unknown>>>): void {
  const script = document.getElementById(PROPS_SCRIPT_ID);
  const props = script
    ? parse(script.textContent ?? "[]", { signal }) as Record<string, unknown>[]
    : [];
  for (const el of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTR}]`)) {
    const name = el.getAttribute(ISLAND_ATTR)!;
    const component = components[name];
    if (!component) continue;
    const index = Number(el.getAttribute(ISLAND_INDEX_ATTR));
    hydrate(h(component, props[index] ?? {}), el);
  }
}
