/**
 * `ARTIFACT_ORIGIN`: a second origin (another hostname pointed at this same app)
 * that serves artifact previews, so they run under a header CSP of their own and
 * share nothing with the chat's origin. On that host the app answers only
 * `/artifact/frame`; everything else is a 404.
 */

/** The artifact origin from the environment's value; null when unset. Throws on a malformed one. */
export function parseArtifactOrigin(value: string | undefined): string | null {
  if (!value?.trim()) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(
      `ARTIFACT_ORIGIN ${
        JSON.stringify(value)
      } is not a URL: set it to an origin such as "https://artifacts.example.com", or unset it.`,
    );
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin === "null") {
    throw new Error(
      `ARTIFACT_ORIGIN ${
        JSON.stringify(value)
      } must be an http(s) origin such as "https://artifacts.example.com".`,
    );
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username) {
    throw new Error(
      `ARTIFACT_ORIGIN ${
        JSON.stringify(value)
      } must be an origin only (scheme, host, port), e.g. "${url.origin}".`,
    );
  }
  return url.origin;
}

/**
 * Whether a request came in for the artifact origin. Hosts are compared, not schemes: behind a
 * TLS-terminating proxy the app may see http for an https origin.
 */
export function isArtifactHost(url: URL, artifactOrigin: string | null): boolean {
  return artifactOrigin !== null && url.host === new URL(artifactOrigin).host;
}

/** The parent origin a frame request names (`?parent=`), when it is a plain http(s) origin. */
export function parentOriginOf(url: URL): string | null {
  const value = url.searchParams.get("parent");
  if (!value || !URL.canParse(value)) return null;
  const parent = new URL(value);
  if (parent.protocol !== "https:" && parent.protocol !== "http:") return null;
  return parent.origin === value ? parent.origin : null;
}
