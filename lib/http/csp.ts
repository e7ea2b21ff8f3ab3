/**
 * Content-Security-Policy of HTML pages. Scripts run only from our origin or
 * when they carry the page's nonce (the island boot script is inline), so an
 * injected `<script>` or event-handler attribute does not run.
 */

/** A fresh nonce for one response: 16 random bytes, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The policy for a page whose inline scripts carry `nonce`. Style attributes are
 * allowed (island markers, markdown table alignment and MathML from temml use
 * them) but not inline `<style>` elements; images may be data: URLs (SVG icons). Pages may
 * fetch from `connectOrigins` too: the APIs of agents that run in the visitor's browser.
 */
export function contentSecurityPolicy(nonce: string, connectOrigins: string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(" "),
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
