import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { Message } from "./Message.tsx";
import { citedSourcesOf, sourcesOf } from "./sources.ts";
import { answerForCopy } from "./copy_text.ts";

/** An answer saved with sources whose URLs were never checked (older data, a bad index). */
function answerWithSources(urls: string[]): ChatMessage {
  return {
    id: "a1",
    role: "assistant",
    parts: [
      { type: "text", text: urls.map((_, i) => `Veja [${i + 1}].`).join(" ") },
      ...urls.map((url, i) => ({
        type: "source-url" as const,
        sourceId: String(i + 1),
        url,
        title: `Fonte ${i + 1}`,
      })),
    ],
  } as ChatMessage;
}

const BAD = [
  "javascript:alert(document.cookie)",
  "data:text/html,<script>alert(1)</script>",
  "/relative/without/origin",
  "https://user:pw@site.example/",
];

Deno.test("a source whose URL is not an http(s) URL renders as a chip without a link", () => {
  const message = answerWithSources([...BAD, "https://site.example/receitas/pao"]);
  const sources = sourcesOf(message);
  assert.deepEqual(sources.map((s) => s.href), [null, null, null, null, sources[4].href]);
  assert.match(sources[4].href!, /^https:\/\/site\.example\/receitas\/pao/);
  const html = renderToString(h(Message, { message, t: messages("pt-BR"), render: null }));
  assert.doesNotMatch(html, /javascript:|data:text|user:pw|href="\/relative/);
  assert.equal(html.match(/class="chip"/g)?.length, 5, "every source still has its chip");
  assert.equal(html.match(/<a class="chip"/g)?.length, 1);
});

/** An answer citing `cited` of five numbered passages, with `extra` text after it. */
function answerCiting(text: string): ChatMessage {
  return {
    id: "a2",
    role: "assistant",
    parts: [
      ...[1, 2, 3, 4, 5].map((n) => ({
        type: "source-url" as const,
        sourceId: String(n),
        url: `https://site.example/p${n}`,
        title: `Página ${n}`,
      })),
      { type: "text", text },
    ],
  } as ChatMessage;
}

Deno.test("chips list the passages the answer cites, not every passage the search numbered", () => {
  const message = answerCiting(
    "Sim, pelo menu Conta [3]. Em inglês também [1].\n\n```py\nx = a[2]\n```\nUse `b[4]` e [veja](https://x.example) [5](https://y.example).",
  );
  assert.deepEqual(sourcesOf(message).map((s) => s.n), [1, 2, 3, 4, 5]);
  assert.deepEqual(citedSourcesOf(message).map((s) => s.n), [1, 3]);
  const html = renderToString(h(Message, { message, t: messages("pt-BR"), render: null }));
  assert.equal(html.match(/class="chip"/g)?.length, 2);
  assert.match(html, /Página 3/);
  assert.doesNotMatch(html, /Página [245]/);
  assert.doesNotMatch(answerForCopy(message, "Fontes"), /Página [245]/);
});

Deno.test("an answer that cites nothing (yet) shows no chips", () => {
  const message = answerCiting("O site não tem informação sobre isso.");
  const html = renderToString(h(Message, { message, t: messages("pt-BR"), render: null }));
  assert.doesNotMatch(html, /class="chip"/);
  assert.equal(answerForCopy(message, "Fontes"), "O site não tem informação sobre isso.");
});
