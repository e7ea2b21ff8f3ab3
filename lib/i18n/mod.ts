/**
 * Every visitor-facing string, one catalog per language. Brazilian Portuguese
 * is the default; English is chosen by Accept-Language or the `lang` cookie.
 * Client-safe: islands import it too.
 */
import { en } from "./en.ts";
import { ptBR } from "./pt_br.ts";

/** Supported UI languages. */
export type Locale = "pt-BR" | "en";

/** The shape of a catalog: every key of the Portuguese one. */
export type Messages = typeof ptBR;

const CATALOGS: Record<Locale, Messages> = { "pt-BR": ptBR, en };

/** The catalog of `locale`. */
export function messages(locale: Locale): Messages {
  return CATALOGS[locale];
}

/** Fills `{name}` placeholders. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k) => k in values ? String(values[k]) : m);
}

/**
 * Picks the UI language: an explicit `lang` cookie wins, then Accept-Language
 * (English only when it ranks above any Portuguese), else pt-BR.
 */
export function pickLocale(req: Request): Locale {
  const cookie = req.headers.get("cookie") ?? "";
  const m = /(?:^|;\s*)lang=(pt-BR|en)(?:;|$)/.exec(cookie);
  if (m) return m[1] as Locale;
  const header = req.headers.get("accept-language");
  if (!header) return "pt-BR";
  const ranked = header.split(",").map((part, i) => {
    const [tag, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return { tag, q: q ? Number(q.slice(2)) || 0 : 1, i };
  }).sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    if (tag.startsWith("pt")) return "pt-BR";
    if (tag.startsWith("en")) return "en";
  }
  return "pt-BR";
}
