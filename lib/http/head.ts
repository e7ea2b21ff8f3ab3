/**
 * What a page adds to the document head, handed from its handler to routes/_app.tsx
 * through the request state: its own title and its other-language versions.
 */
import type { State } from "./types.ts";

/** A version of the page in another language. */
export interface HeadAlternate {
  /** BCP 47, e.g. "pt-BR", "en". */
  hreflang: string;
  /** Path or absolute URL. */
  href: string;
}

export interface PageHead {
  title?: string;
  alternates?: HeadAlternate[];
}

const KEY = "head";

/** Sets the page's head fields (merged over what was set before). */
export function setHead(state: State, head: PageHead): void {
  state[KEY] = { ...(state[KEY] as PageHead | undefined), ...head };
}

/** The page's head fields; empty when the page set none. */
export function headOf(state: State): PageHead {
  return (state[KEY] as PageHead | undefined) ?? {};
}
