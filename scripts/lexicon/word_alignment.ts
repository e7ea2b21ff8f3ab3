/**
 * Word translations learned from a parallel corpus with IBM Model 1 (Brown et al., 1993):
 * expectation–maximisation of p(target word | source word) over sentence pairs, each target
 * word aligned to some source word or to NULL. Trained in both directions, a pair is kept
 * when each word is a likely translation of the other, which drops the function words and
 * the frequent neighbours that one direction alone lets through.
 */

/** A sentence and its translation, already tokenized. */
export type SentencePair = readonly [source: readonly string[], target: readonly string[]];

/** p(target | source) by source word, then target word. */
export type TranslationTable = Map<string, Map<string, number>>;

const NULL_WORD = "\u0000";

/** Word ids of one side of the corpus. */
class Vocabulary {
  readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  id(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
    }
    return id;
  }
}

/** p(target | source) after `iterations` rounds of EM (5 is where the tables settle). */
export function trainModel1(pairs: readonly SentencePair[], iterations = 5): TranslationTable {
  const sources = new Vocabulary();
  const targets = new Vocabulary();
  sources.id(NULL_WORD);
  const corpus = pairs.map(([s, t]) =>
    [
      Int32Array.from([0, ...s.map((w) => sources.id(w))]),
      Int32Array.from(t, (w) => targets.id(w)),
    ] as const
  );
  const width = targets.words.length;
  // Uniform start: the first round's counts are plain co-occurrences.
  let prob = new Map<number, number>();
  const p = (s: number, t: number) => prob.get(s * width + t) ?? (iterations ? 1 : 0);
  for (let round = 0; round < iterations; round++) {
    const counts = new Map<number, number>();
    const totals = new Float64Array(sources.words.length);
    for (const [s, t] of corpus) {
      for (const target of t) {
        let z = 0;
        for (const source of s) z += p(source, target);
        for (const source of s) {
          const c = p(source, target) / z;
          const key = source * width + target;
          counts.set(key, (counts.get(key) ?? 0) + c);
          totals[source] += c;
        }
      }
    }
    for (const [key, c] of counts) counts.set(key, c / totals[Math.floor(key / width)]);
    prob = counts;
  }
  const table: TranslationTable = new Map();
  for (const [key, value] of prob) {
    const source = sources.words[Math.floor(key / width)];
    if (source === NULL_WORD) continue;
    const row = table.get(source) ?? new Map<string, number>();
    row.set(targets.words[key % width], value);
    table.set(source, row);
  }
  return table;
}

/** How the two directions' tables are read into word pairs. */
export interface PairOptions {
  /** Least p(target | source) (default 0.05). */
  forward?: number;
  /** Least p(source | target) (default 0.02). */
  backward?: number;
  /** Most translations kept per source word, the likeliest first (default 4). */
  perWord?: number;
  /** Words left out on either side (function words, in that language). */
  skip?: (word: string, side: "source" | "target") => boolean;
}

/**
 * Word pairs both tables agree on: p(t | s) ≥ forward and p(s | t) ≥ backward, ordered by
 * source word (as first met in `forward`) and then by the product of the two, likeliest first.
 */
export function agreedPairs(
  forward: TranslationTable,
  backward: TranslationTable,
  options: PairOptions = {},
): Array<[string, string]> {
  const minForward = options.forward ?? 0.05;
  const minBackward = options.backward ?? 0.02;
  const perWord = options.perWord ?? 4;
  const skip = options.skip ?? (() => false);
  const out: Array<[string, string]> = [];
  for (const [source, row] of forward) {
    if (skip(source, "source")) continue;
    const kept: Array<[string, number]> = [];
    for (const [target, p] of row) {
      if (p < minForward || source === target || skip(target, "target")) continue;
      const back = backward.get(target)?.get(source) ?? 0;
      if (back >= minBackward) kept.push([target, p * back]);
    }
    kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [target] of kept.slice(0, perWord)) out.push([source, target]);
  }
  return out;
}
