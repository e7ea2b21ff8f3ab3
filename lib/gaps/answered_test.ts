import assert from "node:assert/strict";
import { groupGaps } from "./group.ts";
import { placeGroups } from "./answered.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";

const gap = (at: number, question: string, lang: "pt" | "en" = "pt") => ({
  at,
  chatId: `c${at}`,
  question,
  reason: "not-covered" as const,
  lang,
});

const answer = (id: string, question: string, updatedAt: number, lang: "pt" | "en" = "pt") =>
  ({
    id,
    question,
    answer: "Texto.",
    lang,
    createdAt: updatedAt,
    updatedAt,
  }) satisfies OwnerAnswer;

Deno.test("placeGroups: answered groups after the open ones; asked again since, open again", () => {
  const groups = groupGaps([
    gap(1, "Vocês entregam em Portugal?"),
    gap(2, "Qual o horário de atendimento?"),
    gap(3, "Qual o preço do frete?"),
    gap(4, "Do you ship to Portugal?", "en"),
    gap(9, "Qual é o horário de atendimento?"),
    gap(10, "Vocês vendem vale-presente?"),
    gap(11, "Vocês vendem vale-presente na loja física?"),
    gap(12, "Aceitam pagamneto?"),
  ]);
  const { open, answered } = placeGroups(groups, [
    answer("a1", "Vocês entregam para Portugal?", 5),
    answer("a2", "Qual o horário de atendimento?", 5),
    answer("a3", "Vocês entregam em Portugal?", 5, "en"),
    // Alike to the group's older wording only (0.5), not to its newest (0.33).
    answer("a4", "Dá para comprar vale-presente?", 12),
    // The visitor's typo ("pagamneto") does not keep the answer from the group.
    answer("a5", "Aceitam pagamento?", 13),
  ]);
  // The opening hours were asked again after their answer: open, and saying so.
  assert.deepEqual(
    open.map((s) => [s.group.question, s.answer?.id ?? null, s.since]),
    [
      ["Qual é o horário de atendimento?", "a2", 1],
      ["Do you ship to Portugal?", null, 0],
      ["Qual o preço do frete?", null, 0],
    ],
  );
  assert.deepEqual(answered.map((s) => [s.group.question, s.answer!.id]), [
    ["Aceitam pagamneto?", "a5"],
    ["Vocês vendem vale-presente na loja física?", "a4"],
    ["Vocês entregam em Portugal?", "a1"],
  ]);
});

Deno.test("placeGroups: a group alike to a dismissed question is dismissed, asked again or not", () => {
  const groups = groupGaps([
    gap(1, "Vocês entregam pizza?"),
    gap(2, "Qual o horário de atendimento?"),
    gap(8, "Vocês entregam pizza em casa?"),
    gap(9, "Vocês entregam pizza?"),
    gap(10, "Do you deliver pizza?", "en"),
  ]);
  const dismissal = { id: "d1", question: "Vocês entregam pizza?", lang: "pt", at: 5 } as const;
  const { open, answered, dismissed } = placeGroups(
    groups,
    [answer("a1", "Vocês entregam pizza?", 3)],
    [dismissal],
  );
  // Dismissed outweighs answered; the gaps since the dismissal are counted.
  assert.deepEqual(
    dismissed.map((s) => [s.group.question, s.dismissal?.id, s.answer?.id, s.since]),
    [["Vocês entregam pizza?", "d1", "a1", 2]],
  );
  // Another language is another question.
  assert.deepEqual(open.map((s) => s.group.question), [
    "Do you deliver pizza?",
    "Qual o horário de atendimento?",
  ]);
  assert.deepEqual(answered, []);
});
