/**
 * Content-Security-Policy of HTML pages. Scripts run only from our origin or
 * when they carry the page's nonce (the island boot script is inline), so an
 * injected `<script>` or event-handler attribute does not run.
 *
 * Artifact previews shape three directives. A `srcdoc` preview inherits this
 * policy on top of its own, so the page allows what the artifact policy allows
 * and nothing more: nonced `<style>` elements (the panel gives the artifact's the
 * nonce), `blob:` images and `data:` fonts. `frame-src` names only the artifact
 * origin, or nothing: a frame may not navigate itself (or a link, a meta refresh)
 * anywhere else — a `srcdoc` frame is not a fetch and is always allowed.
 */

/** A fresh nonce for one response: 16 random bytes, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The policy for a page whose inline scripts carry `nonce`. Style attributes are
 * allowed (island markers, markdown table alignment and MathML from temml use
 * them), inline `<style>` elements only with the nonce; images may be data: URLs (SVG icons,
 * SVG artifacts). Pages may fetch from `connectOrigins` too: the APIs of agents that run in
 * the visitor's browser; and frame `frameOrigins`: the artifact origin.
 */
export function contentSecurityPolicy(
  nonce: string,
  connectOrigins: string[] = [],
  frameOrigins: string[] = [],
): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connectOrigins].join(" "),
    `frame-src ${frameOrigins.length ? frameOrigins.join(" ") : "'none'"}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * `policy` with its `frame-ancestors` replaced by our origin plus `origins`: for the one page
 * other sites may frame (the widget's). `X-Frame-Options` must then be left off (see `framedByOthers`).
 */
export function withFrameAncestors(policy: string, origins: readonly string[]): string {
  const directive = ["frame-ancestors 'self'", ...origins].join(" ");
  return policy.replace(/frame-ancestors [^;]*/, directive);
}

/** Whether a response's CSP lets other origins frame it, so `X-Frame-Options` must not forbid it. */
export function framedByOthers(res: Response): boolean {
  const policy = res.headers.get("content-security-policy") ?? "";
  const ancestors = /frame-ancestors ([^;]*)/.exec(policy)?.[1].trim().split(/\s+/) ?? [];
  return ancestors.some((a) => a !== "'self'" && a !== "'none'");
}
