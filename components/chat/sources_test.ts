import assert from "node:assert/strict";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { Message } from "./Message.tsx";
import { sourcesOf } from "./sources.ts";

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
