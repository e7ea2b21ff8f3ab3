import assert from "node:assert/strict";
import {
  decodeXmlText,
  MAX_TOKEN_CHARS,
  SitemapScanner,
  SitemapSyntaxError,
} from "./sitemap_stream.ts";

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <loc>https://no.example/</loc> inside -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://a.example/one</loc><lastmod>2025-01-01</lastmod></url>
  <url><loc>
    https://a.example/two?x=1&amp;y=2
  </loc></url>
  <url><sm:loc><![CDATA[https://a.example/three?a<b]]></sm:loc></url>
  <url><loc>https://a.example/caf&#233;/&#x2F;</loc></url>
  <url><loc></loc></url>
</urlset>`;
const LOCS = [
  "https://a.example/one",
  "https://a.example/two?x=1&y=2",
  "https://a.example/three?a<b",
  "https://a.example/café//",
];

function scanInPieces(xml: string, size: number): { root: string | null; locs: string[] } {
  const scan = new SitemapScanner();
  const locs: string[] = [];
  for (let i = 0; i < xml.length; i += size) locs.push(...scan.feed(xml.slice(i, i + size)));
  return { root: scan.root, locs };
}

Deno.test("the sitemap scanner finds the same <loc>s however the XML is split into chunks", () => {
  for (let size = 1; size <= SITEMAP.length; size++) {
    assert.deepEqual(
      scanInPieces(SITEMAP, size),
      { root: "urlset", locs: LOCS },
      `chunks of ${size}`,
    );
  }
  const index = `<sitemapindex><sitemap><loc>/a.xml</loc></sitemap></sitemapindex>`;
  assert.deepEqual(scanInPieces(index, 7), { root: "sitemapindex", locs: ["/a.xml"] });
  assert.deepEqual(scanInPieces("<!doctype html><html><body>x</body></html>", 5).root, "other");
});

Deno.test("a runaway <loc> or tag stops the scanner instead of growing its buffer", () => {
  const scan = new SitemapScanner();
  scan.feed("<urlset><url><loc>https://a.example/");
  assert.throws(
    () => {
      for (let i = 0; i < 100; i++) scan.feed("x".repeat(4096));
    },
    (e) => e instanceof SitemapSyntaxError && e.message.includes(String(MAX_TOKEN_CHARS)),
  );
  assert.equal(decodeXmlText(" a &lt;&gt;&quot;&apos; &bogus; "), `a <>"' &bogus;`);
});
