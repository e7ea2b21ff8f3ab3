/**
 * Every expression applied to visitor text runs in linear time: each function that takes a
 * question, a title or streamed text runs on 256 KiB of adversarial input (long runs of the
 * characters its patterns care about, then a character that breaks the match) under a bound
 * far above linear time and far below quadratic. A 255 KB question once froze the server for
 * 54 s in title derivation.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { UIMessage, UIMessageChunk } from "ai";
import { analyze } from "@/lib/search/analyzer.ts";
import { searchText, withoutClitics } from "@/lib/search/query_terms.ts";
import { askedPart } from "@/lib/search/asked_part.ts";
import { citationFilter } from "./citations.ts";
import { clampTitle, fallbackTitle } from "./title.ts";
import { smallTalk, withoutCourtesy } from "@/lib/text/courtesy.ts";

const SIZE = 256 * 1024;
/** Generous for a linear pass on a loaded 2-core machine; the quadratic versions took 9.9 s to minutes. */
const BOUND_MS = 2000;

const RUNS = [
  " ",
  "\t",
  "?",
  "!",
  ".",
  "*",
  "#",
  '"',
  "“",
  "«",
  "[",
  "[1",
  "1",
  "`",
  "~",
  "\n```",
  ",",
  ";",
  "é",
  "\u00a0",
  "oi ",
  "'d",
  "’",
  "please ",
  ", por favor",
];

/** 256 KiB: a prefix, a run of one adversarial unit, and a final character that breaks the run. */
const adversarial = fc.record({
  unit: fc.constantFrom(...RUNS),
  other: fc.constantFrom(...RUNS),
  tail: fc.constantFrom("x", "a", "]", "", " b"),
}).map(({ unit, other, tail }) => {
  const half = (unit.repeat(Math.ceil(SIZE / 2 / unit.length))).slice(0, SIZE / 2);
  const rest = (other + unit).repeat(Math.ceil(SIZE / 2 / (other.length + unit.length)));
  return "x" + half + rest.slice(0, SIZE / 2 - 2) + tail;
});

const question = (text: string): UIMessage => ({
  id: "q",
  role: "user",
  parts: [{ type: "text", text }],
});

function timed(name: string, fn: () => unknown, input: string) {
  const start = performance.now();
  fn();
  const ms = performance.now() - start;
  assert.ok(
    ms < BOUND_MS,
    `${name} took ${ms.toFixed(0)} ms on ${input.length} characters starting ${
      JSON.stringify(input.slice(0, 12))
    }`,
  );
}

const FUNCTIONS: Record<string, (text: string) => unknown> = {
  fallbackTitle: (text) => fallbackTitle(question(text)),
  clampTitle: (text) => clampTitle(text),
  withoutCourtesy: (text) => withoutCourtesy(text),
  smallTalk: (text) => smallTalk(text),
  citationFilter: (text) => {
    const filter = citationFilter({ valid: 0, invalid: 0 }, new Set(["1"]));
    const out: UIMessageChunk[] = [];
    // Whole, and in 4 KiB deltas as a model would stream it.
    filter({ type: "text-delta", id: "a", delta: text }, (c) => out.push(c));
    filter({ type: "text-end", id: "a" }, (c) => out.push(c));
    for (let i = 0; i < text.length; i += 4096) {
      filter({ type: "text-delta", id: "b", delta: text.slice(i, i + 4096) }, (c) => out.push(c));
    }
    filter({ type: "text-end", id: "b" }, (c) => out.push(c));
  },
  analyze: (text) => analyze(text, "pt", {}),
  withoutClitics: (text) => withoutClitics(text),
  searchText: (text) => searchText(text, ["pt", "en"]),
  askedPart: (text) => askedPart(text),
};

for (const [name, fn] of Object.entries(FUNCTIONS)) {
  Deno.test(`linear on visitor text: ${name} on 256 KiB of adversarial input`, () => {
    fn("aquecimento"); // JIT and lazy loading out of the measurement
    fc.assert(fc.property(adversarial, (input) => timed(name, () => fn(input), input)), {
      numRuns: 12,
      seed: 20261130,
    });
  });
}

Deno.test("titles: cleaned and capped as before", () => {
  assert.equal(clampTitle('  "Como funciona o assistente?"  '), "Como funciona o assistente?");
  assert.equal(clampTitle("## **Título** ..."), "Título");
  assert.equal(
    fallbackTitle(question("Quais dados vocês guardam???!")),
    "Quais dados vocês guardam",
  );
  const long = "Uma pergunta bem longa sobre como o assistente encontra respostas no site, e mais";
  assert.equal(clampTitle(long), "Uma pergunta bem longa sobre como o assistente encontra…");
  assert.equal(fallbackTitle(question("?!")), "…");
  assert.equal(
    fallbackTitle(question("Bom dia! Quanto tempo vocês guardam as conversas? Obrigado")),
    "Quanto tempo vocês guardam as conversas",
  );
  assert.equal(fallbackTitle(question("Oi, tudo bem?")), "Oi, tudo bem");
});

/** The old expressions, as the oracle for ordinary input. */
function oldClampTitle(raw: string): string {
  const text = raw.replace(/\s+/g, " ").replace(/^["'“”«»\s#*]+|["'“”«»\s*.]+$/g, "").trim();
  if (text.length <= 60) return text;
  const cut = text.slice(0, 59);
  const space = cut.lastIndexOf(" ");
  return (space > 30 ? cut.slice(0, space) : cut).replace(/[,;:.\s]+$/, "") + "…";
}

Deno.test("titles: the same as the old expressions on ordinary questions", () => {
  const chars = fc.constantFrom(..."abc é?!.,;: *#\"“”«»'\t\n".split(""));
  fc.assert(
    fc.property(fc.string({ unit: chars, maxLength: 200 }), (text) => {
      assert.equal(clampTitle(text), oldClampTitle(text));
      assert.equal(
        fallbackTitle(question(text)),
        oldClampTitle(text.trim().replace(/[?!]+$/, "")) || "…",
      );
    }),
    { numRuns: 2000, seed: 7 },
  );
});
