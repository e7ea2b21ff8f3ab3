import assert from "node:assert/strict";
import { parse } from "parse5";
import {
  ARTIFACT_CSP,
  artifactFrameCsp,
  artifactFramePage,
  buildSandboxDoc,
  CSP_META,
  MAX_FRAME_HEIGHT,
  readSizeMessage,
  scriptNonceMeta,
  withNonce,
} from "./sandbox_doc.ts";
import { FRAME_GUARD } from "./frame_guard.ts";
import { MAX_ARTIFACT_BYTES } from "./types.ts";

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  value?: string;
}

/** Every node in document order, as an HTML parser builds the tree. */
function walk(node: Node, out: Node[] = []): Node[] {
  out.push(node);
  for (const child of node.childNodes ?? []) walk(child, out);
  return out;
}

const HOSTILE_HEADS = [
  "<!doctype html><html><head><script>fetch('http://x')</script></head><body>hi</body></html>",
  '<meta http-equiv="Content-Security-Policy" content="default-src *">',
  "<base href='http://x/'><img src=a.png>",
  "<!-- comment first --><p>x</p>",
  "</head></html><script>1</script>",
  "  \n<html><head><title>t</title></head></html>",
  "<svg><script>alert(1)</script></svg>",
];

Deno.test("sandbox document: the CSP meta tag is the first element, nothing but the doctype before it", () => {
  for (const content of HOSTILE_HEADS) {
    const doc = buildSandboxDoc(content);
    assert.ok(doc.startsWith("<!DOCTYPE html>" + CSP_META), `starts with the CSP: ${content}`);
    const nodes = walk(parse(doc) as unknown as Node);
    // #document, the doctype, then html and head (implied by the meta), then the meta itself.
    const firstLeaf = nodes.findIndex((n) =>
      n.nodeName !== "#document" && n.nodeName !== "html" &&
      n.nodeName !== "head" && n.nodeName !== "#documentType"
    );
    const meta = nodes[firstLeaf];
    assert.equal(meta.tagName, "meta", `first element: ${content}`);
    assert.deepEqual(meta.attrs, [
      { name: "http-equiv", value: "Content-Security-Policy" },
      { name: "content", value: ARTIFACT_CSP },
    ]);
    assert.equal(
      nodes.slice(0, firstLeaf).filter((n) => n.nodeName === "#comment" || n.nodeName === "#text")
        .length,
      0,
    );
  }
});

Deno.test("sandbox document: the policy is the issue's, word for word, plus webrtc 'block'", () => {
  assert.equal(
    ARTIFACT_CSP,
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'; form-action 'none'; webrtc 'block'",
  );
});

Deno.test("sandbox document: a second policy demands the nonce; the guard runs first, with it", () => {
  const doc = buildSandboxDoc("<script>1</script>", { nonce: "abc" });
  assert.ok(doc.startsWith("<!DOCTYPE html>" + CSP_META + scriptNonceMeta("abc")));
  assert.equal(scriptNonceMeta("abc").match(/content="([^"]*)"/)?.[1], "script-src 'nonce-abc'");
  const scripts = walk(parse(doc) as unknown as Node).filter((n) => n.tagName === "script");
  assert.equal(scripts.length, 2);
  assert.deepEqual(scripts[0].attrs, [{ name: "nonce", value: "abc" }]);
  assert.ok(scripts[0].childNodes?.[0].value?.startsWith(FRAME_GUARD + ";"));
  // Without a nonce (a frame on the artifact origin) the document makes one of its own.
  const own = /'nonce-([^']+)'/.exec(buildSandboxDoc("<p>x</p>"))?.[1] ?? "";
  assert.match(own, /^[A-Za-z0-9+/]{22}==$/);
  assert.notEqual(/'nonce-([^']+)'/.exec(buildSandboxDoc("<p>x</p>"))?.[1], own);
});

Deno.test("sandbox document: the artifact's doctype is dropped, its content kept", () => {
  const doc = buildSandboxDoc("<!DOCTYPE html>\n<html><body><p id=x>hello</p></body></html>");
  assert.equal(doc.match(/<!doctype/gi)?.length, 1);
  assert.ok(doc.endsWith("<html><body><p id=x>hello</p></body></html>"));
});

Deno.test("sandbox document: with a nonce every script and style carries it; bad nonces are ignored", () => {
  const doc = buildSandboxDoc(
    "<style>p{}</style><SCRIPT>1</SCRIPT><script src=x></script><scripts>",
    {
      nonce: "abc+/=",
    },
  );
  assert.equal(doc.match(/<(script|style) nonce="abc\+\/="/gi)?.length, 4, doc);
  assert.match(doc, /<scripts>/, "other tags untouched");
  // A malformed nonce is never copied into the document: it gets a fresh one instead.
  const quoted = buildSandboxDoc("<script>1</script>", { nonce: '"><img src=x>' });
  assert.doesNotMatch(quoted, /img src/);
  assert.match(quoted, /<script nonce="[A-Za-z0-9+/]{22}==">1<\/script>/);
  assert.equal(withNonce("<style\n>", "n"), '<style nonce="n"\n>');
});

Deno.test("size messages: only { type: 'artifact-size', height } is read, and clamped", () => {
  assert.equal(readSizeMessage({ type: "artifact-size", height: 321.4 }), 321);
  assert.equal(readSizeMessage({ type: "artifact-size", height: 1e12 }), MAX_FRAME_HEIGHT);
  assert.equal(readSizeMessage({ type: "artifact-size", height: -5 }), 0);
  for (
    const bad of [
      null,
      "artifact-size",
      { type: "artifact-size", height: "300" },
      { type: "artifact-size", height: NaN },
      { type: "artifact-size", height: 300, navigate: "http://x" },
      { type: "navigate", height: 300 },
      [300],
    ]
  ) {
    assert.equal(readSizeMessage(bad), null, JSON.stringify(bad));
  }
});

Deno.test("artifact origin page: takes one document from the parent origin only; its CSP sandboxes it", () => {
  const page = artifactFramePage("https://chat.example");
  assert.match(page, /e\.source!==parent\|\|e\.origin!=="https:\/\/chat\.example"/);
  assert.match(page, /removeEventListener\("message",take\)/);
  assert.doesNotMatch(artifactFramePage("</script><script>x"), /<\/script><script>x/);
  const csp = artifactFrameCsp("https://chat.example");
  assert.ok(csp.startsWith(ARTIFACT_CSP));
  assert.match(csp, /; sandbox allow-scripts;/);
  assert.match(csp, /frame-ancestors https:\/\/chat\.example/);
  assert.doesNotMatch(csp, /allow-same-origin/);
});

Deno.test("nonces go on real script and style elements only: text that looks like a tag survives byte for byte", () => {
  const script = `<script>const html = "<script src=x></" + "script><style>p{}</style>";
// a comment: <script> and <style> here are not tags
const re = /<style\\b/; if (a <script) {}
</script>`;
  const rest = "<!-- <script>1</script> --><textarea><style>x</style></textarea>" +
    `<iframe srcdoc="<script>2</script>"></iframe><p title="<script>">x</p>`;
  const doc = buildSandboxDoc(script + rest, { nonce: "n0" });
  const nonced = 'nonce="n0"';
  assert.ok(doc.endsWith(`<script ${nonced}>` + script.slice("<script>".length) + rest), doc);
  // The frame's own script and the artifact's one: no more.
  assert.equal(doc.split(nonced).length - 1, 2);
  // In SVG and in a template too, and the nonce the artifact wrote comes second.
  assert.equal(
    withNonce('<svg><script>1</script><style>a{}</style></svg><template><script nonce="x">', "n"),
    '<svg><script nonce="n">1</script><style nonce="n">a{}</style></svg>' +
      '<template><script nonce="n" nonce="x">',
  );
});

Deno.test("nonces: an artifact at the size limit, and one nested deep, get theirs", () => {
  const unit = '<div class="row"><span>a &lt; b</span><script>var s = "<script>";</script></div>\n';
  const content = unit.repeat(Math.floor(MAX_ARTIFACT_BYTES / unit.length));
  const doc = buildSandboxDoc(content, { nonce: "n" });
  assert.equal(doc.split('<script nonce="n">').length - 1, 1 + content.split("<div").length - 1);
  // Deep nesting parses without overflowing the stack.
  const deep = "<div>".repeat(MAX_ARTIFACT_BYTES / 5 - 20) + "<style>p{}</style>";
  assert.ok(withNonce(deep, "n").endsWith('<style nonce="n">p{}</style>'));
});
