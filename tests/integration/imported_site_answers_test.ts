/**
 * A site imported as an owner imports it (corpus:import of its built pages, an FAQ written
 * as an accordion, its public URL given), indexed, then asked through POST /api/chat with
 * the offline model: the answer quotes the FAQ entry and cites it at the site's own URL.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import defaultConfig from "@/fresh.config.ts";
import { importCorpus } from "@/lib/corpus/import/run.ts";
import { indexCorpus } from "@/lib/search/corpus_index.ts";
import { loadSiteSearch } from "@/lib/search/mod.ts";
import { startTestServer } from "../support/server.ts";
import {
  newChatId,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { tempDir } from "../support/temp.ts";

const SITE = "https://loja.example";
const QA = [
  ["Qual é o prazo de entrega?", "O prazo de entrega é de cinco dias úteis para as capitais."],
  ["Posso trocar um produto?", "Sim. Você pode trocar qualquer produto em até trinta dias."],
  [
    "Quais formas de pagamento vocês aceitam?",
    "Aceitamos cartão de crédito, boleto bancário e Pix.",
  ],
];

/** The store's help page: a Bootstrap accordion, every answer but the first folded. */
function helpPage(): string {
  const items = QA.map(([q, a], i) =>
    `<div class="accordion-item"><h2 class="accordion-header"><button class="accordion-button" type="button" data-bs-toggle="collapse" data-bs-target="#c${i}" aria-expanded="${
      i === 0
    }" aria-controls="c${i}">${q}</button></h2><div id="c${i}" class="accordion-collapse collapse${
      i === 0 ? " show" : ""
    }"${
      i === 0 ? "" : ' style="display: none"'
    }><div class="accordion-body"><p>${a}</p></div></div></div>`
  ).join("");
  return `<!doctype html><html lang="pt-BR"><head><title>Perguntas frequentes | Loja</title></head>` +
    `<body><header><nav><a href="/">Início</a></nav></header><main><h1>Perguntas frequentes</h1>` +
    `<p>Entregas, trocas e pagamentos na Loja Aurora.</p><div class="accordion" id="faq">${items}</div>` +
    `</main><footer>Loja Aurora</footer></body></html>`;
}

Deno.test("an imported FAQ accordion is answered and cited at the site's own URL", async () => {
  const src = tempDir({ prefix: "loja-" });
  mkdirSync(join(src, "ajuda"), { recursive: true });
  writeFileSync(join(src, "ajuda", "index.html"), helpPage());
  const corpus = tempDir({ prefix: "loja-corpus-" });
  writeFileSync(join(corpus, "manifest.json"), "[]\n");
  await importCorpus({ source: src, corpusDir: corpus, baseUrl: SITE, license: "CC-BY-4.0" });
  const asset = join(tempDir({ prefix: "loja-index-" }), "index.bin");
  await indexCorpus({ corpusDir: corpus, outPath: asset });

  const server = await startTestServer({
    search: loadSiteSearch({ assetPath: asset }),
    config: testConfig({ site: { ...defaultConfig.site, url: SITE } }),
  });
  try {
    for (const [question, answer] of QA.slice(1)) {
      const res = await postChat(server.url, { id: newChatId(), message: userMessage(question) });
      assert.equal(res.status, 200);
      const { chunks } = await readSse(res);
      const text = streamedText(chunks);
      assert.match(text, new RegExp(answer.split(".")[0]), `${question} → ${text}`);
      assert.match(text, /\[1\]/);
      const sources = chunks.filter((c) => c.type === "source-url").map((c) =>
        (c as { url: string }).url
      );
      assert.ok(sources[0]?.startsWith(`${SITE}/ajuda`), JSON.stringify(sources));
    }
  } finally {
    await server.close();
  }
});
