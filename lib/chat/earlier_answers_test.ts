import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { earlierAnswers, MAX_EARLIER_ANSWERS } from "./earlier_answers.ts";

function answer(id: string, earlier?: ChatMessage["metadata"]): ChatMessage {
  return {
    id,
    role: "assistant",
    parts: [{ type: "text", text: `answer ${id}` }],
    metadata: { model: "local", feedback: { rating: "down" }, ...earlier },
  };
}

Deno.test("earlierAnswers: keeps the replaced answer after its own earlier ones, without feedback", () => {
  const first = earlierAnswers(answer("a1"));
  assert.deepEqual(first, [{
    id: "a1",
    parts: [{ type: "text", text: "answer a1" }],
    metadata: { model: "local" },
  }]);
  const second = earlierAnswers(answer("a2", { earlier: first }));
  assert.deepEqual(second.map((e) => e.id), ["a1", "a2"]);
  assert.equal("earlier" in (second[1].metadata ?? {}), false, "no nesting");
});

Deno.test("earlierAnswers: keeps at most MAX_EARLIER_ANSWERS, dropping the oldest", () => {
  let kept = earlierAnswers(answer("a0"));
  for (let i = 1; i < 9; i++) kept = earlierAnswers(answer(`a${i}`, { earlier: kept }));
  assert.equal(kept.length, MAX_EARLIER_ANSWERS);
  assert.equal(kept.at(-1)?.id, "a8");
});
