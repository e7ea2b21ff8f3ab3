/**
 * 5-fold cross-validation of search changes on a BEIR set (FaQuAD by default): queries are
 * split into 5 folds by a hash of their id; for each change, its parameters are tuned on
 * 4 folds (best mean nDCG@10) and measured on the 5th, against the app's defaults on the
 * same fold. A change is worth adopting only when it wins on the held-out folds.
 *
 *   deno task eval:cv [--corpus c.jsonl --queries q.jsonl --qrels r.tsv] [--lang pt|en] [--json]
 *                     [--change "term proximity"]
 *
 * Prints a markdown table per change (each fold, the mean, the parameters picked), or one
 * JSON line with --json.
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { type Lang, toLang } from "@/lib/search/analyzer.ts";
import { type BeirDoc, ndcgAt, parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { DEFAULT_BM25 } from "@/lib/search/bm25.ts";
import {
  DEFAULT_FEEDBACK,
  DEFAULT_PROXIMITY,
  DEFAULT_QUESTION_WORDS,
  type EngineOptions,
  SearchEngine,
} from "@/lib/search/engine.ts";
import { buildIndexData, DEFAULT_TITLE_WEIGHT, type IndexData } from "@/lib/search/index_data.ts";

const FAQUAD = new URL("../tests/fixtures/faquad/", import.meta.url).pathname;
const FOLDS = 5;

/** One setting of the engine: index-time title weight and query-time options. */
export interface Setting {
  titleWeight: number;
  options: EngineOptions;
}

/** The app's defaults. */
export const BASELINE: Setting = {
  titleWeight: DEFAULT_TITLE_WEIGHT,
  options: {
    bm25: DEFAULT_BM25,
    questionWords: DEFAULT_QUESTION_WORDS,
    feedback: DEFAULT_FEEDBACK,
    proximity: DEFAULT_PROXIMITY,
  },
};

const grid = <T>(xs: T[], f: (x: T) => Setting) => xs.map(f);
const product = <A, B>(as: A[], bs: B[]): Array<[A, B]> =>
  as.flatMap((a) => bs.map((b) => [a, b] as [A, B]));

/** The changes under test, each with its parameter grid. */
export const CHANGES: Record<string, Setting[]> = {
  "fields: title/heading weight": grid(
    [0, 1, 1.5, 2, 3, 4],
    (w) => ({ ...BASELINE, titleWeight: w }),
  ),
  "BM25 k1, b": grid(product([0.9, 1.2, 1.5], [0.5, 0.75, 0.9]), ([k1, b]) => ({
    ...BASELINE,
    options: { ...BASELINE.options, bm25: { k1, b } },
  })),
  "question words dropped": grid([0, 1, 2] as const, (q) => ({
    ...BASELINE,
    options: { ...BASELINE.options, questionWords: q },
  })),
  "question frames also dropped": grid([1, 2] as const, (q) => ({
    ...BASELINE,
    options: { ...BASELINE.options, questionWords: q },
  })),
  "term proximity": grid([0, 0.25, 0.5, 1, 2, 4], (p) => ({
    ...BASELINE,
    options: { ...BASELINE.options, proximity: p },
  })),
  "length floor": grid([0, 0.25, 0.5, 0.75, 1], (m) => ({
    ...BASELINE,
    options: { ...BASELINE.options, bm25: { ...DEFAULT_BM25, minLen: m } },
  })),
  "page-level score": [
    BASELINE,
    ...product(["headings", "text"] as const, [0.25, 0.5, 1, 2]).map(([pageField, pageWeight]) => ({
      ...BASELINE,
      options: { ...BASELINE.options, pageField, pageWeight },
    })),
  ],
  "FAQ entry question lift": product([0, 0.25, 0.5, 1, 2], [0, 0.2, 0.5]).map(([a, b]) => ({
    ...BASELINE,
    options: { ...BASELINE.options, entryQuestion: [a, b] as const },
  })),
  "pseudo-relevance feedback": [
    { ...BASELINE, options: { ...BASELINE.options, feedback: null } },
    ...product(product([3, 5, 10], [5, 10, 20]), [0.1, 0.2, 0.35, 0.5]).map((
      [[docs, terms], weight],
    ) => ({ ...BASELINE, options: { ...BASELINE.options, feedback: { docs, terms, weight } } })),
  ],
};

/** Fold of a query id: a stable FNV-1a hash, so folds do not follow the file's order. */
export function foldOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FOLDS;
}

interface Data {
  docs: BeirDoc[];
  queries: Array<{ _id: string; text: string }>;
  qrels: Map<string, Map<string, number>>;
  lang: Lang;
}

const indexCache = new Map<number, IndexData>();

/** nDCG@10 of every judged query under a setting, in query order. */
function perQuery(d: Data, s: Setting): number[] {
  let data = indexCache.get(s.titleWeight);
  if (!data) {
    data = buildIndexData(
      // "<title>#<id>": an article's paragraphs form one page for the page-level score.
      d.docs.map((x) => ({
        id: `${x.title ?? ""}#${x._id}`,
        docId: x._id,
        title: x.title ?? "",
        url: null,
        lang: d.lang,
        text: x.text,
      })),
      { titleWeight: s.titleWeight },
    );
    indexCache.set(s.titleWeight, data);
  }
  const engine = new SearchEngine(data, s.options);
  return d.queries.map((q) => {
    const ids = engine.rankLexical(q.text, 10).ids.map((i) => d.docs[i]._id);
    return ndcgAt(ids, d.qrels.get(q._id)!, 10);
  });
}

/** Cross-validated result of one change. */
export interface CvResult {
  change: string;
  folds: Array<{ fold: number; queries: number; baseline: number; tuned: number; picked: string }>;
  baseline: number;
  tuned: number;
}

function describe(s: Setting): string {
  const o = s.options;
  const fb = o.feedback
    ? `fb ${o.feedback.docs}/${o.feedback.terms}/${o.feedback.weight}`
    : "fb off";
  const page = o.pageWeight ? `, page ${o.pageField ?? "headings"} ${o.pageWeight}` : "";
  const floor = o.bm25?.minLen ? ` min ${o.bm25.minLen}` : "";
  return `tw ${s.titleWeight}, k1 ${o.bm25?.k1} b ${o.bm25?.b}${floor}, qw ${o.questionWords}, ${fb}, prox ${o.proximity}${page}`;
}

/** Run the cross-validation of every change. */
export function crossValidate(d: Data, changes = CHANGES): CvResult[] {
  const folds = d.queries.map((q) => foldOf(q._id));
  const mean = (xs: number[], keep: (i: number) => boolean) => {
    let sum = 0;
    let n = 0;
    xs.forEach((x, i) => {
      if (keep(i)) (sum += x, n++);
    });
    return n ? sum / n : 0;
  };
  const base = perQuery(d, BASELINE);
  return Object.entries(changes).map(([change, settings]) => {
    const scores = settings.map((s) => perQuery(d, s));
    const rows = Array.from({ length: FOLDS }, (_, f) => {
      let best = 0;
      scores.forEach((sc, i) => {
        if (mean(sc, (j) => folds[j] !== f) > mean(scores[best], (j) => folds[j] !== f)) best = i;
      });
      return {
        fold: f + 1,
        queries: folds.filter((x) => x === f).length,
        baseline: mean(base, (j) => folds[j] === f),
        tuned: mean(scores[best], (j) => folds[j] === f),
        picked: describe(settings[best]),
      };
    });
    return {
      change,
      folds: rows,
      baseline: rows.reduce((a, r) => a + r.baseline, 0) / FOLDS,
      tuned: rows.reduce((a, r) => a + r.tuned, 0) / FOLDS,
    };
  });
}

function table(r: CvResult): string {
  const f = (x: number) => x.toFixed(4);
  const lines = [
    `#### ${r.change}`,
    "",
    "| fold | queries | defaults | tuned on the other 4 | Δ | picked |",
    "| ---: | ---: | ---: | ---: | ---: | --- |",
    ...r.folds.map((x) =>
      `| ${x.fold} | ${x.queries} | ${f(x.baseline)} | ${f(x.tuned)} | ${
        (x.tuned - x.baseline >= 0 ? "+" : "") + f(x.tuned - x.baseline)
      } | ${x.picked} |`
    ),
    `| mean | | ${f(r.baseline)} | ${f(r.tuned)} | ${
      (r.tuned - r.baseline >= 0 ? "+" : "") + f(r.tuned - r.baseline)
    } | |`,
    "",
  ];
  return lines.join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", default: FAQUAD + "corpus.jsonl" },
      queries: { type: "string", default: FAQUAD + "queries.jsonl" },
      qrels: { type: "string", default: FAQUAD + "qrels/test.tsv" },
      lang: { type: "string", default: "pt" },
      json: { type: "boolean", default: false },
      change: { type: "string" },
    },
  });
  const qrels = parseQrels(readFileSync(values.qrels, "utf8"));
  const data: Data = {
    docs: parseJsonl<BeirDoc>(readFileSync(values.corpus, "utf8"), values.corpus),
    queries: parseJsonl<{ _id: string; text: string }>(
      readFileSync(values.queries, "utf8"),
      values.queries,
    ).filter((q) => qrels.has(q._id)),
    qrels,
    lang: toLang(values.lang),
  };
  const only = values.change;
  if (only && !(only in CHANGES)) {
    throw new Error(`Unknown --change "${only}": use one of ${Object.keys(CHANGES).join(", ")}`);
  }
  const results = crossValidate(data, only ? { [only]: CHANGES[only] } : CHANGES);
  if (values.json) console.log(JSON.stringify(results));
  else console.log(results.map(table).join("\n"));
}
