import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/chat/types.ts";
import { notCoveredAnswer } from "@/lib/models/extractive.ts";
import { turnGap } from "./turn_gap.ts";

const msg = (role: "user" | "assistant", text: string, valid = 0): ChatMessage => ({
  id: role,
  role,
  parts: [{ type: "text", text }],
  metadata: role === "assistant" ? { citations: { valid, invalid: 0 } } : undefined,
});
const turn = { chatId: "c1", question: msg("user", "Do you ship to Portugal?"), at: 7 };

Deno.test("turnGap: not covered, stopped, or nothing for a cited answer", () => {
  assert.deepEqual(turnGap(turn, msg("assistant", notCoveredAnswer("en")), "finished"), {
    at: 7,
    chatId: "c1",
    question: "Do you ship to Portugal?",
    reason: "not-covered",
    lang: "en",
  });
  assert.equal(turnGap(turn, msg("assistant", "“Yes.” [1]", 1), "stopped")?.reason, "stopped");
  assert.equal(turnGap(turn, msg("assistant", "“Yes, we do.” [1]", 1), "finished"), null);
  assert.equal(turnGap({ ...turn, question: null }, msg("assistant", ""), "stopped"), null);
});
