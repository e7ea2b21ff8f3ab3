/**
 * Texts a site owner writes in fresh.config.ts (the site's name, an agent's name and
 * description) and the model catalog's labels: one string for every language, or one per
 * language, so an English page never shows a Portuguese label. Client-safe.
 */
import type { Locale } from "./mod.ts";

/** The same text in every language, or one per language. */
export type LocalizedText = string | { readonly "pt-BR": string; readonly en: string };

const LOCALES: readonly Locale[] = ["pt-BR", "en"];

/**
 * The text for `locale`.
 * @example localize({ "pt-BR": "Recado", en: "Message" }, "en") // "Message"
 */
export function localize(text: LocalizedText, locale: Locale): string {
  return typeof text === "string" ? text : text[locale];
}

/**
 * What is wrong with `value` as a {@linkcode LocalizedText} (`what` names it in the
 * message), or null: a non-empty string, or an object with a non-empty "pt-BR" and "en".
 */
export function localizedTextProblem(value: unknown, what: string): string | null {
  const fix = `Fix: write a non-empty string, or { "pt-BR": "…", en: "…" }.`;
  if (typeof value === "string") return value.trim() ? null : `${what} is empty. ${fix}`;
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return `${what} must be a string or one per language. ${fix}`;
  }
  const texts = value as Record<string, unknown>;
  const missing = LOCALES.filter((l) => typeof texts[l] !== "string" || !String(texts[l]).trim());
  if (missing.length) {
    return `${what} has no text for ${missing.map((l) => `"${l}"`).join(", ")}. ${fix}`;
  }
  const extra = Object.keys(texts).filter((k) => !LOCALES.includes(k as Locale));
  if (extra.length) {
    return `${what} has the unknown language ${extra.map((k) => `"${k}"`).join(", ")}. ${fix}`;
  }
  return null;
}
