import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { answerForCopy } from "./copy_text.ts";

function answer(sources: { url: string; title: string }[]): ChatMessage {
  return {
    id: "a1",
    role: "assistant",
    parts: [
      { type: "text", text: "Guardamos por 30 dias [1] e apagamos depois [2]." },
      ...sources.map((s, i) => ({
        type: "source-url" as const,
        sourceId: String(i + 1),
        url: s.url,
        title: s.title,
      })),
    ],
  } as ChatMessage;
}

Deno.test("answerForCopy: citations stay and the sources follow as markdown links", () => {
  const text = answerForCopy(
    answer([
      { url: "https://site.example/privacidade", title: "Privacidade [resumo]" },
      { url: "javascript:alert(1)", title: "Sem link" },
    ]),
    "Fontes",
  );
  assert.equal(
    text,
    "Guardamos por 30 dias [1] e apagamos depois [2].\n\nFontes:\n" +
      "[1] [Privacidade \\[resumo\\]](https://site.example/privacidade)\n" +
      "[2] Sem link",
  );
});

Deno.test("answerForCopy: an answer without sources is its text alone", () => {
  assert.equal(
    answerForCopy(answer([]), "Fontes"),
    "Guardamos por 30 dias [1] e apagamos depois [2].",
  );
});
