import assert from "node:assert/strict";
import { uncitableOrigins, uncitableWarnings } from "./uncitable_sources.ts";

const docs = [
  { url: "/sobre" },
  { url: null },
  { url: "https://loja.example/ajuda/" },
  { url: "https://loja.example/trocas/" },
  { url: "https://parceiro.example/faq" },
];

Deno.test("documents on another origin than the site's are listed, with the setting that fixes it", () => {
  const none = { site: { url: null }, allowedOrigins: [] };
  assert.deepEqual([...uncitableOrigins(docs, none)], [
    ["https://loja.example", 2],
    ["https://parceiro.example", 1],
  ]);
  const [first] = uncitableWarnings(docs, none);
  assert.match(first, /2 documents link to https:\/\/loja\.example/);
  assert.match(first, /set site\.url to "https:\/\/loja\.example"/);
  const site = {
    site: { url: "https://loja.example" },
    allowedOrigins: ["https://parceiro.example"],
  };
  assert.deepEqual([...uncitableOrigins(docs, site)], []);
  // javascript: and other non-http URLs are never links, whatever the settings.
  assert.equal(uncitableOrigins([{ url: "javascript:alert(1)" }], site).size, 1);
});
