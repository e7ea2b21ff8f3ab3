/**
 * Which URLs may become a source link (a citation chip, a document's URL).
 * Only http(s) URLs of the site's own origins: a root-relative path of the
 * manifest ("/sobre"), or an absolute URL whose origin is the site's. A page
 * of the corpus can name anything as its canonical URL and a manifest can be
 * edited by hand, so `javascript:`, `data:`, protocol-relative "//host" and
 * other sites' URLs are refused wherever a URL turns into a link. Shared by
 * the importer, the search tool and the chat's rendering.
 */

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The absolute href of `url` as a source link, or null when it may not be one.
 * `url` is a root-relative path (resolved against `base`) or an absolute URL;
 * either must end up http(s) on `base`'s origin or one of `origins`, without
 * credentials.
 *
 * @example sourceLink("/sobre#a", "https://site.example") // "https://site.example/sobre#a"
 * @example sourceLink("javascript:alert(1)", "https://site.example") // null
 */
export function sourceLink(
  url: string,
  base: string,
  origins: readonly string[] = [],
): string | null {
  if (typeof url !== "string" || !(SCHEME.test(url) || url.startsWith("/"))) return null;
  const u = parseUrl(url, base);
  if (!u || !httpNoCredentials(u)) return null;
  const own = parseUrl(base)?.origin;
  return u.origin === own || origins.includes(u.origin) ? u.href : null;
}

/**
 * `url` when it is an absolute http(s) URL without credentials, else null: the
 * check a renderer that does not know the site's origins can still make.
 */
export function httpLink(url: string): string | null {
  if (typeof url !== "string" || !SCHEME.test(url)) return null;
  const u = parseUrl(url);
  return u && httpNoCredentials(u) ? u.href : null;
}

function httpNoCredentials(u: URL): boolean {
  return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
}

/** `new URL`, null instead of a throw (URL.parse is missing from some browsers still in use). */
function parseUrl(url: string, base?: string): URL | null {
  try {
    return new URL(url, base);
  } catch {
    return null;
  }
}
