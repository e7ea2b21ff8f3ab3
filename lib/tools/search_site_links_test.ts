/**
 * The search tool over a real index built from a hand-edited manifest: a
 * passage whose document URL is not an http(s) URL of the site's own origins
 * is never announced as a source nor returned with a URL.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "@/lib/corpus/import/manifest_update.ts";
import { indexCorpus } from "@/lib/search/corpus_index.ts";
import { loadSiteSearch } from "@/lib/search/mod.ts";
import type { SearchToolOutput } from "@/lib/protocol/ui_message.ts";
import { tempDir } from "@/tests/support/temp.ts";
import { createSearchTool, numberedSources } from "./search_site.ts";

const URLS: Record<string, string> = {
  js: "javascript:alert(document.cookie)",
  data: "data:text/html,<script>alert(1)</script>",
  foreign: "https://evil.example/phish",
  slashes: "//evil.example/phish",
  path: "/receitas/pao",
  own: "https://site.example/receitas/bolo",
  sister: "https://loja.site.example/produtos",
};

async function indexOfHandEditedManifest(): Promise<string> {
  const dir = tempDir({ prefix: "links-corpus-" });
  const entries = [];
  for (const [id, url] of Object.entries(URLS)) {
    const text = `# Receita ${id}\n\nA receita ${id} leva fermento natural e farinha de trigo.\n`;
    writeFileSync(join(dir, `${id}.md`), text);
    entries.push({
      id,
      path: `${id}.md`,
      title: `Receita ${id}`,
      url,
      lang: "pt",
      source: "Padaria",
      license: "CC0-1.0",
      sha256: await sha256Hex(new TextEncoder().encode(text)),
    });
  }
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(entries));
  const out = join(tempDir(), "index.bin");
  await indexCorpus({ corpusDir: dir, outPath: out });
  return out;
}

Deno.test("only passages with an http(s) URL of the site's own origins become linked sources", async () => {
  const search = loadSiteSearch({ assetPath: await indexOfHandEditedManifest() });
  const tool = createSearchTool(search, {
    origin: "https://site.example",
    siteOrigins: ["https://loja.site.example"],
    k: 10,
  });
  const output = await tool.execute!({ query: "receita fermento natural farinha" }, {
    toolCallId: "c1",
    messages: [],
    abortSignal: new AbortController().signal,
    context: {},
  }) as SearchToolOutput;
  // The turn's sources are read from the output (lib/chat/turn/relay.ts).
  const sources = numberedSources(output);
  assert.equal(output.passages.length, Object.keys(URLS).length);
  assert.deepEqual(sources.map((s) => s.url).sort(), [
    "https://loja.site.example/produtos#receita-sister",
    "https://site.example/receitas/bolo#receita-own",
    "https://site.example/receitas/pao#receita-path",
  ]);
  const urls = output.passages.flatMap((p) => "url" in p ? [p.url] : []);
  assert.deepEqual(urls.sort(), sources.map((s) => s.url).sort());
  assert.doesNotMatch(JSON.stringify(output), /javascript:|data:text|evil\.example/);
});
