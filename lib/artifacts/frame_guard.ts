/**
 * The script that runs first in every artifact document, before any of the artifact's own,
 * to shut WebRTC: a peer connection sends its ICE traffic (STUN binding requests, TURN
 * allocations) over UDP to any server named in its configuration, and no `connect-src`
 * governs it. Client-safe.
 *
 * CSP's `webrtc 'block'` (in the artifact policy) closes it where a browser supports the
 * directive; Chromium 156 does not. So, in this realm, the guard deletes every WebRTC
 * interface. Other realms are out of the artifact's reach or cannot run script:
 *
 * - a popup does not open (the frame's sandbox has no `allow-popups`);
 * - a nested frame (about:blank, `srcdoc`) of a sandboxed frame without `allow-same-origin`
 *   gets an opaque origin of its own, so the artifact cannot touch its globals; and it
 *   inherits the document's policies, one of which lets only scripts with the document's
 *   nonce run (no event handlers, no `javascript:` URLs). The guard keeps that nonce
 *   unreadable: the `nonce` property answers "", the policy meta tags are removed (a policy
 *   stays in force once parsed), a violation event does not show its policy's text, and
 *   `ReportingObserver`, whose reports would, is deleted;
 * - workers are refused by the policy's `default-src 'none'` and have no WebRTC anyway.
 */

/** The guard's source, one expression to put inside the document's first (nonced) script. */
export const FRAME_GUARD = `(()=>{const g=globalThis;` +
  `for(const n of Object.getOwnPropertyNames(g))if(/^(webkit|moz)?RTC/.test(n))delete g[n];` +
  `const hide=(o,k)=>{if(o&&Object.getOwnPropertyDescriptor(o,k))` +
  `Object.defineProperty(o,k,{get:()=>"",set(){},configurable:false})};` +
  `for(const c of[g.HTMLElement,g.SVGElement,g.MathMLElement])hide(c&&c.prototype,"nonce");` +
  `hide(g.SecurityPolicyViolationEvent&&g.SecurityPolicyViolationEvent.prototype,"originalPolicy");` +
  `delete g.ReportingObserver;` +
  `for(const m of document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]'))m.remove()})()`;
