/**
 * Visitor text must be processed in linear time. Regexes like `/[?!]+$/` or
 * `/^[x]+|[x]+$/g` backtrack quadratically on long runs of the characters they
 * match that do not reach the end: a 255 KB question once froze the whole
 * server for 54 s in title derivation. Each function that sees visitor text
 * (or model text that can echo it) runs here on 256 KiB of adversarial input
 * and must finish well below what a quadratic pass takes.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { UIMessage, UIMessageChunk } from "ai";
import { clampTitle, fallbackTitle } from "@/lib/chat/title.ts";
import { type CitationCounts, citationFilter } from "@/lib/chat/citations.ts";
import { CHAT_ID } from "@/lib/protocol/chat_id.ts";
import { analyze, tokenize } from "@/lib/search/analyzer.ts";
import {
  buildExtractiveAnswer,
  contentTerms,
  detectLang,
  sentences,
} from "@/lib/models/extractive.ts";
import { definitionHead, definitionSubject } from "@/lib/models/definition_cue.ts";
import { wordDeltas } from "@/lib/models/local_model.ts";
import { readCookie } from "@/lib/http/visitor.ts";
import { pickLocale } from "@/lib/i18n/mod.ts";
import { isSpace } from "@/lib/text/scan.ts";
import { createMarkdown } from "@/lib/client/markdown.ts";
import { citedNumbers } from "@/lib/text/message_citations.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

/** The markdown renderer the server uses for saved answers (/c/:id). */
const renderAnswer = createMarkdown();

const SIZE = 256 * 1024;
// Linear passes over 256 KiB take a few ms; the quadratic ones took seconds to minutes.
// Generous so a 2-core machine under load does not flake: 2 s is still five times below
// the fastest quadratic case seen on the old code (9.9 s).
const BOUND_MS = 2000;

// What the patterns care about: whitespace, punctuation, brackets, digits, quotes, markdown.
const UNITS = [
  " ",
  "\t",
  "\n",
  "\u00a0",
  "?",
  "!",
  "?!",
  ".",
  ",",
  ";",
  ":",
  "-",
  "–",
  "—",
  "'",
  '"',
  "“",
  "”",
  "«",
  "»",
  "#",
  "*",
  "#*",
  "[",
  "]",
  "[1",
  "[1]",
  "1",
  "=",
  "/",
  "{",
  "\\",
  "\\(",
  "\\[",
  "![",
  "$",
  "`",
  "~",
  "_",
  "(",
  ";lang",
  "a",
  "é",
  "e\u0301",
  "a ",
  " .",
  ". ",
  "? ",
  '" ',
  "[ ",
  "  \t",
  // A lead-in's colon before the command or setting it shows, and a shell's prompt.
  ": ",
  "a:~# ",
  // A question's kind is read anywhere in it ("…, onde fica o arquivo?").
  "onde ",
];

/** 256 KiB: an optional head, a run of one or two units, and a tail that breaks the run. */
const adversarial = fc.record({
  head: fc.constantFrom("", "a", "Olá ", '"', "data:"),
  unit: fc.constantFrom(...UNITS),
  mix: fc.constantFrom("", ...UNITS),
  tail: fc.constantFrom("", "x", "?", " ", ".", "]", "[", "1", "\u0000", "é"),
}).map(({ head, unit, mix, tail }) => build(head, unit + mix, tail));

function build(head: string, run: string, tail: string): string {
  return head + run.repeat(Math.ceil(SIZE / run.length)) + tail;
}

// Plain runs of every unit, ending at the end and not, come first; then random mixes.
const EXAMPLES = UNITS.flatMap((u) => [[build("", u, "")], [build("", u, "x")]] as [string][]);

/** Asserts that `f` finishes within the bound on each adversarial input. */
function assertLinear(name: string, f: (text: string) => unknown, bound = BOUND_MS) {
  fc.assert(
    fc.property(adversarial, (text) => {
      const t0 = performance.now();
      f(text);
      const ms = performance.now() - t0;
      assert.ok(
        ms < bound,
        `${name} took ${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 12))}… ` +
          `(${text.length} chars), over the ${bound} ms bound: a regex backtracks.`,
      );
    }),
    { numRuns: EXAMPLES.length + 40, examples: EXAMPLES, endOnFailure: true },
  );
}

const userMessage = (text: string): UIMessage => ({
  id: "m",
  role: "user",
  parts: [{ type: "text", text }],
});

const assistantMessage = (text: string): ChatMessage =>
  ({ id: "a", role: "assistant", parts: [{ type: "text", text }] }) as ChatMessage;

function filterText(text: string, deltaSize: number): string {
  const counts: CitationCounts = { valid: 0, invalid: 0 };
  const filter = citationFilter(counts, new Set(["1"]));
  let out = "";
  const push = (c: UIMessageChunk) => c.type === "text-delta" && (out += c.delta);
  filter({ type: "text-start", id: "t" }, push);
  for (let i = 0; i < text.length; i += deltaSize) {
    filter({ type: "text-delta", id: "t", delta: text.slice(i, i + deltaSize) }, push);
  }
  filter({ type: "text-end", id: "t" }, push);
  return out;
}

const PASSAGE = { title: "Harmony Day", url: "https://example.org/a", score: 1 };

/**
 * A request as the handlers see it. Not `new Request`: Deno's Headers constructor trims
 * values with a regex that is itself quadratic on inner runs of spaces, while requests
 * that come in over HTTP skip it (and the server refuses headers past 64 KiB anyway).
 */
function withHeaders(values: Record<string, string>): Request {
  return { headers: { get: (name: string) => values[name] ?? null } } as unknown as Request;
}

// [name, function, bound in ms when not the default]
const CASES: [string, (text: string) => unknown, number?][] = [
  ["clampTitle", clampTitle],
  ["fallbackTitle", (t) => fallbackTitle(userMessage(t))],
  ["citationFilter, one delta", (t) => filterText(t, SIZE * 2)],
  ["citationFilter, 7-char deltas", (t) => filterText(t, 7)],
  ["wordDeltas", wordDeltas],
  ["tokenize", tokenize],
  ["analyze", (t) => analyze(t, "pt")],
  ["contentTerms", contentTerms],
  ["detectLang", detectLang],
  ["sentences", sentences],
  [
    "buildExtractiveAnswer",
    (t) =>
      buildExtractiveAnswer(`harmony day ${t}`, [
        { ...PASSAGE, n: 1, text: `Harmony day is in March ${t}.` },
      ]),
    // It analyses both the 256 KiB question and the 256 KiB passage (31 s on the old code).
    5000,
  ],
  ["definitionSubject", (t) => definitionSubject(`o que é ${t}`)],
  ["definitionHead", definitionHead],
  [
    "buildExtractiveAnswer, a 'what is' question",
    (t) =>
      buildExtractiveAnswer(`o que é harmony day ${t}`, [
        { ...PASSAGE, n: 1, text: `Harmony day é em março ${t}.` },
      ]),
    5000,
  ],
  ["CHAT_ID", (t) => CHAT_ID.test(t)],
  // The chips' citations, read on every render of an answer, saved or streaming (34 s on a
  // run of backticks with the regex this replaced).
  ["citedNumbers", (t) => citedNumbers(assistantMessage(t))],
  // Answers can echo the visitor. markdown-it itself is linear but not fast (~0.5 s on 256 KiB
  // of "!["); its TeX plugin was quadratic on "\(" runs (33 s).
  ["server markdown of an answer", (t) => renderAnswer(t, () => null), 8000],
  [
    "pickLocale and readCookie",
    (t) => {
      const req = withHeaders({ cookie: `a=${t}; lang=${t}`, "accept-language": t });
      pickLocale(req);
      readCookie(req, "visitor");
    },
  ],
];

for (const [name, f, bound] of CASES) {
  Deno.test(
    `linear time: ${name} on 256 KiB of adversarial text`,
    () => assertLinear(name, f, bound),
  );
}

// --- The linear rewrites behave as the regexes they replace, on ordinary input.

Deno.test("titles: a surrogate pair cut by the bounded prefix is not left half", () => {
  assert.equal(clampTitle(" ".repeat(999) + "😀"), "");
  assert.equal(fallbackTitle(userMessage("a".repeat(999) + "😀")), "a".repeat(59) + "…");
});

Deno.test("wordDeltas splits as /\\s*\\S+\\s*/g did", () => {
  const text = fc.array(fc.constantFrom(" ", "\n", "\t", "\u00a0", "a", "bc", "é", "😀"), {
    maxLength: 30,
  }).map((p) => p.join(""));
  fc.assert(
    fc.property(text, (t) => assert.deepEqual(wordDeltas(t), t.match(/\s*\S+\s*/g) ?? [])),
    { numRuns: 2000 },
  );
});

Deno.test("isSpace is regex \\s, code unit by code unit", () => {
  for (let c = 0; c <= 0xffff; c++) {
    assert.equal(isSpace(c), /\s/.test(String.fromCharCode(c)), `U+${c.toString(16)}`);
  }
});
