/**
 * Calibrates the offline model's "not covered" gate (MIN_MATCH, lib/models/extractive.ts)
 * on held-out folds: covered questions (FaQuAD, the Python FAQ's dev and held-out sets in
 * both languages, our own site's questions) and off-topic ones (tests/fixtures/offtopic/,
 * asked of the Python FAQ and of our site). The gate reads the best `match` of the top five
 * passages, as the offline model does. Questions are split into 5 folds by a hash of their
 * id; on each fold the threshold is picked on the other four (the one that minimises
 * covered questions refused plus off-topic questions answered) and measured on it.
 *
 *   deno task eval:gate [--json]
 *
 * Prints per fold the threshold picked and both rates on the held-out fold, their mean,
 * the threshold picked on everything, and the rates of the app's MIN_MATCH per set,
 * including the held-out off-topic set (tests/fixtures/offtopic/heldout_*), which no
 * threshold is ever picked on.
 */
import { parseArgs } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BeirDoc, parseJsonl } from "@/lib/search/beir.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { beirSiteSearch } from "./eval_answers.ts";
import type { Lang } from "@/lib/search/analyzer.ts";
import { MIN_MATCH } from "@/lib/models/extractive.ts";
import { loadSiteSet } from "./eval_site.ts";
import { smallTalk } from "@/lib/text/courtesy.ts";
import { plainQuestion } from "@/lib/text/visitor_question.ts";

const FIXTURES = fileURLToPath(new URL("../tests/fixtures/", import.meta.url));
const FOLDS = 5;
const THRESHOLDS = Array.from({ length: 61 }, (_, i) => i / 100);

/** One question: the set it is from, whether the site covers it, its gate score. */
interface Scored {
  id: string;
  set: string;
  covered: boolean;
  /** False for a set the threshold is never picked on, only measured. */
  calibrate: boolean;
  match: number;
}

/** What the gate is measured through: the site search the offline model reads. */
type Searcher = Pick<SiteSearch, "search">;

interface QuestionSet {
  name: string;
  covered: boolean;
  calibrate?: boolean;
  engine: Searcher;
  questions: Array<{ _id: string; text: string }>;
}

function beirEngine(corpus: string, lang: Lang): Searcher {
  return beirSiteSearch(parseJsonl<BeirDoc>(readFileSync(corpus, "utf8"), corpus), lang);
}

function questions(path: string): Array<{ _id: string; text: string }> {
  if (!existsSync(path)) return [];
  return parseJsonl<{ _id: string; text: string }>(readFileSync(path, "utf8"), path);
}

/** Every question set the gate is calibrated on. */
async function loadSets(): Promise<QuestionSet[]> {
  const sets: QuestionSet[] = [];
  const pyfaq = `${FIXTURES}pyfaq/`;
  const site = await loadSiteSet();
  const siteEngine = new SearchEngine(site.build());
  for (const lang of ["pt", "en"] as const) {
    const engine = beirEngine(`${pyfaq}corpus_${lang}.jsonl`, lang);
    sets.push(
      {
        name: `pyfaq-dev-${lang}`,
        covered: true,
        engine,
        questions: questions(`${pyfaq}queries_${lang}.jsonl`),
      },
      {
        name: `pyfaq-heldout-${lang}`,
        covered: true,
        engine,
        questions: questions(`${pyfaq}heldout_queries_${lang}.jsonl`),
      },
      {
        name: `offtopic-${lang}@pyfaq`,
        covered: false,
        engine,
        questions: questions(`${FIXTURES}offtopic/queries_${lang}.jsonl`),
      },
      {
        name: `offtopic-heldout-${lang}@pyfaq`,
        covered: false,
        calibrate: false,
        engine,
        questions: questions(`${FIXTURES}offtopic/heldout_queries_${lang}.jsonl`),
      },
      {
        name: `offtopic-${lang}@site`,
        covered: false,
        engine: siteEngine,
        questions: questions(`${FIXTURES}offtopic/queries_${lang}.jsonl`),
      },
    );
  }
  sets.push({
    name: "faquad",
    covered: true,
    engine: beirEngine(`${FIXTURES}faquad/corpus.jsonl`, "pt"),
    questions: questions(`${FIXTURES}faquad/queries.jsonl`),
  });
  // The English questions about Portuguese-only pages are found through the shipped lexicon.
  sets.push({ name: "site", covered: true, engine: siteEngine, questions: site.queries });
  return sets;
}

async function score(sets: QuestionSet[]): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const s of sets) {
    for (const q of s.questions) {
      // As the offline model: small talk is never searched, and the query is what it searches.
      const talk = smallTalk(q.text);
      const { passages } = talk && talk.kind !== "who"
        ? { passages: [] }
        : await s.engine.search(plainQuestion(q.text), { k: 5 });
      const match = Math.max(0, ...passages.map((p) => p.match ?? 0));
      out.push({
        id: `${s.name}/${q._id}`,
        set: s.name,
        covered: s.covered,
        calibrate: s.calibrate ?? true,
        match,
      });
    }
  }
  return out;
}

/**
 * Share of covered questions refused and of off-topic questions refused at `t`, each the
 * mean over its sets, so FaQuAD's 900 questions do not outvote a 12-question set.
 */
function rates(items: readonly Scored[], t: number) {
  const share = (covered: boolean) => {
    const sets = [...new Set(items.filter((i) => i.covered === covered).map((i) => i.set))];
    if (!sets.length) return 0;
    return sets.reduce((sum, set) => {
      const rows = items.filter((i) => i.set === set);
      return sum + rows.filter((i) => i.match < t).length / rows.length;
    }, 0) / sets.length;
  };
  return { coveredRefused: share(true), offTopicRefused: share(false) };
}

/** The threshold with the fewest errors, each kind weighed by its share (balanced). */
function pick(items: readonly Scored[]): number {
  let best = 0;
  let bestCost = Infinity;
  for (const t of THRESHOLDS) {
    const r = rates(items, t);
    const cost = r.coveredRefused + (1 - r.offTopicRefused);
    if (cost < bestCost - 1e-9) [best, bestCost] = [t, cost];
  }
  return best;
}

function fold(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % FOLDS;
}

const r4 = (x: number) => Number(x.toFixed(4));

/** Run the calibration and return its report. */
export async function runGateEval(): Promise<Record<string, unknown>> {
  const all = await score(await loadSets());
  const items = all.filter((i) => i.calibrate);
  const folds = Array.from({ length: FOLDS }, (_, k) => {
    const t = pick(items.filter((i) => fold(i.id) !== k));
    const r = rates(items.filter((i) => fold(i.id) === k), t);
    return { fold: k, threshold: t, ...r };
  });
  const mean = (f: (x: typeof folds[number]) => number) =>
    r4(folds.reduce((s, x) => s + f(x), 0) / FOLDS);
  const perSet = Object.fromEntries(
    [...new Set(all.map((i) => i.set))].map((set) => {
      const r = rates(all.filter((i) => i.set === set), MIN_MATCH);
      const covered = all.find((i) => i.set === set)!.covered;
      return [set, r4(covered ? r.coveredRefused : r.offTopicRefused)];
    }),
  );
  return {
    folds: folds.map((f) => ({
      ...f,
      coveredRefused: r4(f.coveredRefused),
      offTopicRefused: r4(f.offTopicRefused),
    })),
    heldOut: {
      coveredRefused: mean((f) => f.coveredRefused),
      offTopicRefused: mean((f) => f.offTopicRefused),
    },
    pickedOnAll: pick(items),
    app: { minMatch: MIN_MATCH, ...rates(items, MIN_MATCH) },
    // Per set at the app's threshold: covered sets give the share refused, off-topic
    // sets the share refused (higher is better there).
    perSetRefused: perSet,
  };
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { json: { type: "boolean" } } });
  const report = await runGateEval();
  console.log(values.json ? JSON.stringify(report) : JSON.stringify(report, null, 2));
}
