import assert from "node:assert/strict";
import { groupGaps } from "./group.ts";
import { gapsCsv } from "./csv.ts";
import { placeGroups } from "./answered.ts";
import type { GapRecord } from "@/lib/store/gaps.ts";

const gap = (at: number, question: string, reason: GapRecord["reason"] = "not-covered") => ({
  at,
  chatId: `c${at}`,
  question,
  reason,
  lang: "pt" as const,
});

Deno.test("groupGaps: alike questions share a group, counted, newest group first", () => {
  const groups = groupGaps([
    gap(1, "Vocês entregam em Portugal?"),
    gap(2, "Qual o preço do frete?"),
    gap(3, "Vocês entregam para Portugal?", "thumbs-down"),
    gap(4, "Entregam em Portugal?", "stopped"),
  ]);
  assert.deepEqual(groups.map((g) => [g.question, g.count]), [
    ["Entregam em Portugal?", 3],
    ["Qual o preço do frete?", 1],
  ]);
  assert.deepEqual(groups[0].reasons, { stopped: 1, "thumbs-down": 1, "not-covered": 1 });
  assert.deepEqual(groups[0].chatIds, ["c4", "c3", "c1"]);
});

Deno.test("groupGaps: a short question with a typo joins its group; another word does not", () => {
  const groups = groupGaps([
    gap(1, "Vocês guardam o que eu escrevo?"),
    gap(2, "Vocês guardam o que eu esrcevo?"),
    gap(3, "Como apago minha conta?"),
    gap(4, "Como pago minha conta?"),
  ]);
  assert.deepEqual(groups.map((g) => [g.question, g.count]), [
    ["Como pago minha conta?", 1],
    ["Como apago minha conta?", 1],
    ["Vocês guardam o que eu esrcevo?", 2],
  ]);
});

Deno.test("groupGaps: questions with no content terms group only when equal", () => {
  const groups = groupGaps([gap(1, "E aí?"), gap(2, "e aí?"), gap(3, "Oi?")]);
  assert.deepEqual(groups.map((g) => g.count), [1, 2]);
});

Deno.test("gapsCsv: quotes fields and defuses spreadsheet formulas", () => {
  const groups = groupGaps([gap(0, '=HYPERLINK("x") "preço"?'), gap(1, "Entregam pizza?")]);
  const dismissal = { id: "d1", question: "Entregam pizza?", lang: "pt", at: 5 } as const;
  const { open, dismissed } = placeGroups(groups, [], [dismissal]);
  const csv = gapsCsv([...open, ...dismissed]);
  const [header, row, last] = csv.split("\r\n");
  assert.ok(header.startsWith('"question","lang","count"'));
  assert.ok(header.endsWith('"went_on_to","status"'));
  assert.ok(row.startsWith(`"'=HYPERLINK(""x"") ""preço""?","pt","1","1","0","0",`), row);
  assert.ok(row.endsWith('"open"'), row);
  assert.ok(last.startsWith('"Entregam pizza?"') && last.endsWith('"dismissed"'), last);
});
