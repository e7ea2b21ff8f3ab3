import assert from "node:assert/strict";
import { recordGap } from "@/lib/store/gaps.ts";
import type { OwnerAnswer } from "@/lib/store/owner_answers.ts";
import { gapStatuses } from "./statuses.ts";

const gap = (at: number, question: string) =>
  ({ at, chatId: `c${at}`, question, reason: "not-covered", lang: "pt" }) as const;

const questions = (s: Awaited<ReturnType<typeof gapStatuses>>) =>
  [s.open, s.answered, s.dismissed].map((part) => part.map((x) => x.group.question));

Deno.test("gapStatuses: kept between views, made again once a gap, an answer or a dismissal changes", async () => {
  const kv = await Deno.openKv(":memory:");
  const other = await Deno.openKv(":memory:");
  try {
    await recordGap(kv, gap(1, "Vocês entregam pizza?"));
    const first = await gapStatuses(kv, [], [], 10);
    assert.equal(await gapStatuses(kv, [], [], 20), first, "the same groups, not grouped again");
    // Another store of the same process has its own groups.
    await recordGap(other, gap(1, "Qual o horário?"));
    assert.deepEqual(questions(await gapStatuses(other, [], [], 20)), [
      ["Qual o horário?"],
      [],
      [],
    ]);

    await recordGap(kv, gap(2, "Aceitam cartão?"));
    assert.deepEqual(questions(await gapStatuses(kv, [], [], 30)), [
      ["Aceitam cartão?", "Vocês entregam pizza?"],
      [],
      [],
    ]);
    const answer: OwnerAnswer = {
      id: "a1",
      question: "Aceitam cartão?",
      answer: "Sim.",
      lang: "pt",
      createdAt: 5,
      updatedAt: 5,
    };
    assert.deepEqual(questions(await gapStatuses(kv, [answer], [], 40)), [
      ["Vocês entregam pizza?"],
      ["Aceitam cartão?"],
      [],
    ]);
    const dismissal = { id: "d1", question: "Vocês entregam pizza?", lang: "pt", at: 6 } as const;
    assert.deepEqual(questions(await gapStatuses(kv, [answer], [dismissal], 50)), [
      [],
      ["Aceitam cartão?"],
      ["Vocês entregam pizza?"],
    ]);
    // An hour later (gaps expire), made again.
    const kept = await gapStatuses(kv, [answer], [dismissal], 60);
    assert.notEqual(await gapStatuses(kv, [answer], [dismissal], 60 + 3_600_000), kept);
  } finally {
    kv.close();
    other.close();
  }
});
