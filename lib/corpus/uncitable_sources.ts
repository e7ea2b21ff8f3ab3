/**
 * Documents whose URL the chat may not cite. A source link must be on the site's own
 * origins (lib/text/source_link.ts): a root-relative path, `site.url`'s origin or an
 * `allowedOrigins` entry. A corpus imported with another `--base-url` than the site's URL
 * is searched but never quoted: the offline model answers "not covered" to everything
 * in it. `deno task index` warns with this list.
 */
import type { ManifestEntry } from "@/lib/search/manifest.ts";
import { sourceLink } from "@/lib/text/source_link.ts";

/** The configuration that decides which origins are the site's. */
export interface SiteOrigins {
  site: { url: string | null };
  allowedOrigins: readonly string[];
}

/** Origin → how many documents link there, for the documents the chat cannot cite. */
export function uncitableOrigins(
  docs: readonly Pick<ManifestEntry, "url">[],
  config: SiteOrigins,
): Map<string, number> {
  // Without a site URL, links resolve against the assistant's own origin, unknown here.
  const base = config.site.url ?? "http://assistant.invalid";
  const out = new Map<string, number>();
  for (const { url } of docs) {
    if (!url || sourceLink(url, base, config.allowedOrigins) !== null) continue;
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = url.slice(0, 60);
    }
    out.set(origin, (out.get(origin) ?? 0) + 1);
  }
  return out;
}

/** One warning line per origin the chat cannot cite, naming the setting that fixes it. */
export function uncitableWarnings(
  docs: readonly Pick<ManifestEntry, "url">[],
  config: SiteOrigins,
): string[] {
  return [...uncitableOrigins(docs, config)].map(([origin, n]) =>
    `warning: ${n} ${n === 1 ? "document links" : "documents link"} to ${origin}, ` +
    `which is neither the site's URL ` +
    `(site.url in fresh.config.ts: ${config.site.url ?? "not set"}) nor an allowedOrigins entry: ` +
    `the assistant searches ${n === 1 ? "it" : "them"} but cannot quote or cite ${
      n === 1 ? "it" : "them"
    }.` +
    (/^https?:\/\//.test(origin) ? ` If ${origin} is the site, set site.url to "${origin}".` : "")
  );
}
