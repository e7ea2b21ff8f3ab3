import assert from "node:assert/strict";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { notCoveredAnswer } from "@/lib/models/extractive.ts";
import { smallTalkReply } from "@/lib/models/local_small_talk.ts";
import { relatedGap, turnGap } from "./turn_gap.ts";

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

Deno.test("turnGap: a regenerated answer records its question as asked again", () => {
  const retry = {
    chatId: "c1",
    question: null,
    retried: msg("user", "Vocês entregam em Portugal?"),
    at: 9,
  };
  assert.deepEqual(turnGap(retry, msg("assistant", "“Sim.” [1]", 1), "finished"), {
    at: 9,
    chatId: "c1",
    question: "Vocês entregam em Portugal?",
    reason: "retried",
    lang: "pt",
  });
  // Stopped wins: the visitor stopped the new answer too.
  assert.equal(turnGap(retry, msg("assistant", "“Sim.” [1]", 1), "stopped")?.reason, "stopped");
});

Deno.test("turnGap: small talk is no content gap, whatever the answer", () => {
  const hello = { chatId: "c1", question: msg("user", "Oi, tudo certo por aí?"), at: 8 };
  const reply = msg("assistant", smallTalkReply("greeting", "pt"));
  assert.equal(turnGap(hello, reply, "finished"), null);
  assert.equal(turnGap(hello, reply, "stopped"), null);
  assert.equal(turnGap(hello, msg("assistant", notCoveredAnswer("pt")), "finished"), null);
  // A question after a greeting is one: the owner sees it as asked.
  const greeted = { ...hello, question: msg("user", "Oi! Vocês entregam em Portugal?") };
  assert.equal(
    turnGap(greeted, msg("assistant", notCoveredAnswer("pt")), "finished")?.question,
    "Oi! Vocês entregam em Portugal?",
  );
});

Deno.test("relatedGap: the previous question, with the related question the visitor went on to", () => {
  const related = {
    chatId: "c1",
    question: msg("user", "Como apago tudo o que o assistente guardou sobre mim?"),
    followedFrom: msg("user", "O que o cookie guarda sobre mim?"),
    at: 11,
  };
  assert.deepEqual(relatedGap(related), {
    at: 11,
    chatId: "c1",
    question: "O que o cookie guarda sobre mim?",
    reason: "related",
    lang: "pt",
    followed: "Como apago tudo o que o assistente guardou sobre mim?",
  });
  assert.equal(relatedGap({ ...related, followedFrom: null }), null);
  assert.equal(relatedGap({ ...related, followedFrom: msg("user", "Oi, tudo bem?") }), null);
});
