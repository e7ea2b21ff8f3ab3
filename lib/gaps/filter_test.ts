import assert from "node:assert/strict";
import { answerMatches, filterWords, groupMatches } from "./filter.ts";
import { groupGaps } from "./group.ts";
import { placeGroups } from "./answered.ts";

Deno.test("gaps filter: every word, anywhere in a wording, case and accents aside", () => {
  const groups = groupGaps([
    { at: 1, chatId: "c1", question: "Vocês entregam pizza?", reason: "not-covered", lang: "pt" },
    { at: 2, chatId: "c2", question: "Qual o horário?", reason: "not-covered", lang: "pt" },
  ]);
  const { open } = placeGroups(groups, []);
  const kept = (q: string) =>
    open.filter((s) => groupMatches(s, filterWords(q))).map((s) => s.group.question);
  assert.deepEqual(kept("PIZZA entreg"), ["Vocês entregam pizza?"]);
  assert.deepEqual(kept("horario"), ["Qual o horário?"]);
  assert.deepEqual(kept("pizza horário"), []);
  assert.deepEqual(kept("  "), ["Qual o horário?", "Vocês entregam pizza?"]);
  assert.deepEqual(filterWords("a".repeat(150)), ["a".repeat(100)]);
  const answer = {
    id: "a1",
    question: "Tem login?",
    answer: "",
    lang: "pt",
    target: { id: "faq#conta", title: "FAQ › Preciso de conta?", url: "/faq#conta" },
    createdAt: 1,
    updatedAt: 1,
  } as const;
  assert.equal(answerMatches(answer, filterWords("conta")), true);
  assert.equal(answerMatches(answer, filterWords("pizza")), false);
});
