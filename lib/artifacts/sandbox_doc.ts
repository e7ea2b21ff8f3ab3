/**
 * The document an HTML artifact runs in. Client-safe: the panel builds it in the
 * browser; the server builds the frame page of a separate artifact origin.
 *
 * The CSP meta tag is the document's first element, so it governs everything the
 * artifact holds: no network of any kind (WebRTC included, where `webrtc` is known),
 * no forms, only inline script and style. A second policy lets only scripts carrying
 * the document's nonce run. The first script, nonced, shuts WebRTC where the policy
 * cannot (see lib/artifacts/frame_guard.ts) and reports the document's height to the
 * parent — the only message the parent listens to (see {@linkcode readSizeMessage}).
 */
import { FRAME_GUARD } from "./frame_guard.ts";
import { withNonce } from "./script_nonce.ts";

export { withNonce };

/** The artifact's policy: nothing leaves the frame. */
export const ARTIFACT_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'; form-action 'none'; webrtc 'block'";

/** The first element of every artifact document. */
export const CSP_META = `<meta http-equiv="Content-Security-Policy" content="${ARTIFACT_CSP}">`;

/**
 * The second policy of an artifact document: scripts run only with `nonce`. Nested frames
 * inherit it, and the artifact cannot read the nonce (see lib/artifacts/frame_guard.ts), so
 * no nested frame runs a script of its own.
 */
export function scriptNonceMeta(nonce: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="script-src 'nonce-${nonce}'">`;
}

/** Type of the frame's size messages. */
export const SIZE_MESSAGE = "artifact-size";

/** Type of the message that hands the document to a frame on the artifact origin. */
export const DOCUMENT_MESSAGE = "artifact-document";

/** Tallest height the parent accepts from a frame, in CSS pixels. */
export const MAX_FRAME_HEIGHT = 20_000;

const REPORT_SIZE = `(()=>{const post=()=>parent.postMessage({type:"${SIZE_MESSAGE}",` +
  `height:Math.ceil(document.documentElement.scrollHeight)},"*");` +
  `new ResizeObserver(post).observe(document.documentElement);addEventListener("load",post)})()`;

/** Options of {@linkcode buildSandboxDoc}. */
export interface SandboxDocOptions {
  /**
   * The page's CSP nonce. A `srcdoc` frame inherits the page's policy as well as having
   * its own, so its scripts and styles run only when they carry the page's nonce. Without
   * one (a frame served from the artifact origin), or with a malformed one, the document
   * gets a fresh nonce of its own.
   */
  nonce?: string;
}

const NONCE = /^[A-Za-z0-9+/=_-]+$/;

/** A fresh nonce: 16 random bytes, base64. */
function freshNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The whole document of an HTML artifact: a doctype (standards mode; not an element),
 * the CSP meta tags, the guard and size reporter, then the artifact with its own doctype
 * dropped; every script and style carries the nonce.
 */
export function buildSandboxDoc(content: string, options: SandboxDocOptions = {}): string {
  const nonce = options.nonce && NONCE.test(options.nonce) ? options.nonce : freshNonce();
  const body = content.replace(/^\s*<!doctype[^>]*>/i, "");
  // One parse of the whole document: the artifact's markup is read in the context it runs in.
  return withNonce(
    "<!DOCTYPE html>" + CSP_META + scriptNonceMeta(nonce) +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<script>${FRAME_GUARD};${REPORT_SIZE}</script>` + body,
    nonce,
  );
}

/** A size message read from a frame's `postMessage`, or null when it is anything else. */
export function readSizeMessage(data: unknown): number | null {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return null;
  const keys = Object.keys(data);
  if (keys.length !== 2 || !keys.includes("type") || !keys.includes("height")) return null;
  const { type, height } = data as { type: unknown; height: unknown };
  if (type !== SIZE_MESSAGE || typeof height !== "number" || !Number.isFinite(height)) return null;
  return Math.min(Math.max(Math.round(height), 0), MAX_FRAME_HEIGHT);
}

/**
 * The page served on the artifact origin (`ARTIFACT_ORIGIN`): it waits for one message
 * from its parent, from `parentOrigin`, holding the document, and writes it over itself.
 * The response's header CSP (see {@linkcode artifactFrameCsp}) stays with the document.
 */
export function artifactFramePage(parentOrigin: string): string {
  const origin = JSON.stringify(parentOrigin).replaceAll("<", "\\u003c");
  return "<!DOCTYPE html><title>artifact</title><script>" +
    `addEventListener("message",function take(e){` +
    `if(e.source!==parent||e.origin!==${origin}||!e.data||e.data.type!=="${DOCUMENT_MESSAGE}"` +
    `||typeof e.data.html!=="string")return;removeEventListener("message",take);` +
    `document.open();document.write(e.data.html);document.close()})` +
    "</script>";
}

/** The header CSP of the artifact origin's page: the artifact's policy, sandboxed, framed only by `parentOrigin`. */
export function artifactFrameCsp(parentOrigin: string): string {
  return `${ARTIFACT_CSP}; sandbox allow-scripts; frame-ancestors ${parentOrigin}; base-uri 'none'`;
}
