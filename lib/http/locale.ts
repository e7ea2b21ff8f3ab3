import type { State } from "./types.ts";
import type { Locale } from "@/lib/i18n/mod.ts";

/** The locale the root middleware chose for this request. */
export function localeOf(state: State): Locale {
  return state.locale === "en" ? "en" : "pt-BR";
}
