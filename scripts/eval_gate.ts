/**
 * Calibrates the offline model's "not covered" gate (MIN_MATCH and MIN_COVERAGE,
 * lib/models/extractive.ts) on held-out folds: covered questions (FaQuAD, the Python FAQ's dev
 * and held-out sets in both languages, our own site's questions) and off-topic ones
 * (tests/fixtures/offtopic/, asked of the Python FAQ and of our site). The gate has two halves,
 * both read as the offline model reads them: the best `match` of the top five passages, and,
 * when the answer is not an FAQ entry's, the share of the question the best sentence covers.
 * Each question is scored once by each half (its match; the highest coverage threshold at which
 * the offline answer still answers it). Questions are split into 5 folds by a hash of their id;
 * on each fold the pair of thresholds is picked on the other four (the pair that minimises
 * covered questions refused plus off-topic questions answered) and measured on it.
 *
 *   deno task eval:gate [--json]
 *
 * Prints per fold the thresholds picked and both rates on the held-out fold, their mean,
 * the thresholds picked on everything, and the rates of the app's thresholds per set,
 * including sets no threshold is ever picked on: the held-out off-topic questions
 * (tests/fixtures/offtopic/heldout_*) and the three held-out sites (tests/fixtures/debfaq/, its
 * covered questions only; tests/fixtures/harden/ and tests/fixtures/handbook/, two sets each
 * and their off-topic ones).
 */
import { parseArgs } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BeirDoc, parseJsonl } from "@/lib/search/beir.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import type { SearchResult, SiteSearch } from "@/lib/search/types.ts";
import { beirSiteSearch } from "./eval_answers.ts";
import { type AnswerSet, answerSets } from "./eval_sites.ts";
import type { Lang } from "@/lib/search/analyzer.ts";
import { isNotCoveredAnswer, MIN_COVERAGE, MIN_MATCH } from "@/lib/models/extractive.ts";
import { answerOver } from "@/lib/eval/offline_answer.ts";
import { loadSiteSet } from "./eval_site.ts";
import { smallTalk } from "@/lib/text/courtesy.ts";
import { plainQuestion } from "@/lib/text/visitor_question.ts";

const FIXTURES = fileURLToPath(new URL("../tests/fixtures/", import.meta.url));
const FOLDS = 5;
/** The sites no threshold is picked on. */
const HELD_OUT_SITES = ["debfaq", "harden", "handbook"];
const THRESHOLDS = Array.from({ length: 61 }, (_, i) => i / 100);
const COVERAGES = Array.from({ length: 13 }, (_, i) => i / 20);

/** One question: the set it is from, whether the site covers it, its gate score. */
export interface Scored {
  id: string;
  set: string;
  covered: boolean;
  /** False for a set the threshold is never picked on, only measured. */
  calibrate: boolean;
  match: number;
  /**
   * The highest of COVERAGES at which the offline answer still answers (with any match);
   * -1 when it refuses at every one (no sentence overlaps the question at all).
   */
  cover: number;
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
  return [...sets, ...heldOutSites()];
}

/**
 * The held-out sites' questions (eval:sites's sets of the Debian FAQ and both manuals), and each
 * site's off-topic ones after its sets: measured at the app's thresholds, never picked on.
 */
function heldOutSites(): QuestionSet[] {
  const engines = new Map<string, Searcher>();
  const engineOf = (s: AnswerSet) => {
    let engine = engines.get(s.corpus);
    if (!engine) engines.set(s.corpus, engine = beirEngine(s.corpus, s.lang));
    return engine;
  };
  const out: QuestionSet[] = [];
  const held = answerSets().filter((s) => HELD_OUT_SITES.includes(s.site));
  held.forEach((s, i) => {
    out.push({
      name: s.name,
      covered: true,
      calibrate: false,
      engine: engineOf(s),
      questions: questions(s.queries),
    });
    const last = held[i + 1]?.site !== s.site || held[i + 1]?.lang !== s.lang;
    const offtopic = held.find((o) => o.site === s.site && o.lang === s.lang && o.offtopic);
    if (last && offtopic) {
      out.push({
        name: `offtopic-${s.lang}@${s.site}`,
        covered: false,
        calibrate: false,
        engine: engineOf(s),
        questions: questions(offtopic.offtopic!),
      });
    }
  });
  return out;
}

async function score(sets: QuestionSet[]): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const s of sets) {
    for (const q of s.questions) {
      // As the offline model: small talk is never searched, and the query is what it searches.
      const talk = smallTalk(q.text);
      const result = talk && talk.kind !== "who"
        ? { passages: [] }
        : await s.engine.search(plainQuestion(q.text), { k: 5 });
      const match = Math.max(0, ...result.passages.map((p) => p.match ?? 0));
      out.push({
        id: `${s.name}/${q._id}`,
        set: s.name,
        covered: s.covered,
        calibrate: s.calibrate ?? true,
        match,
        cover: coverOf(q.text, result),
      });
    }
  }
  return out;
}

/**
 * The highest of COVERAGES at which the offline answer to `question` over the search's
 * passages is not "not covered", the match half of the gate left open; -1 when none.
 */
function coverOf(question: string, result: Pick<SearchResult, "passages" | "translation">): number {
  let cover = -1;
  for (const minCoverage of COVERAGES) {
    if (isNotCoveredAnswer(answerOver(question, result, { minMatch: 0, minCoverage }).text)) break;
    cover = minCoverage;
  }
  return cover;
}

/** Whether the gate at thresholds `g` refuses the question. */
const refuses = (i: Scored, g: Gate) => i.match < g.match || i.cover < g.coverage;

/** The gate's two thresholds. */
export interface Gate {
  match: number;
  coverage: number;
}

/**
 * Share of covered questions refused and of off-topic questions refused at `g`, each the
 * mean over its sets, so FaQuAD's 900 questions do not outvote a 12-question set.
 */
export function rates(items: readonly Scored[], g: Gate) {
  const share = (covered: boolean) => {
    const sets = [...new Set(items.filter((i) => i.covered === covered).map((i) => i.set))];
    if (!sets.length) return 0;
    return sets.reduce((sum, set) => {
      const rows = items.filter((i) => i.set === set);
      return sum + rows.filter((i) => refuses(i, g)).length / rows.length;
    }, 0) / sets.length;
  };
  return { coveredRefused: share(true), offTopicRefused: share(false) };
}

/** The thresholds with the fewest errors, each kind weighed by its share (balanced). */
export function pick(items: readonly Scored[]): Gate {
  let best: Gate = { match: 0, coverage: 0 };
  let bestCost = Infinity;
  for (const coverage of COVERAGES) {
    for (const match of THRESHOLDS) {
      const r = rates(items, { match, coverage });
      const cost = r.coveredRefused + (1 - r.offTopicRefused);
      if (cost < bestCost - 1e-9) [best, bestCost] = [{ match, coverage }, cost];
    }
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
  const app: Gate = { match: MIN_MATCH, coverage: MIN_COVERAGE };
  const all = await score(await loadSets());
  const items = all.filter((i) => i.calibrate);
  const folds = Array.from({ length: FOLDS }, (_, k) => {
    const gate = pick(items.filter((i) => fold(i.id) !== k));
    const held = items.filter((i) => fold(i.id) === k);
    return { fold: k, gate, ...rates(held, gate), app: rates(held, app) };
  });
  const mean = (f: (x: typeof folds[number]) => number) =>
    r4(folds.reduce((s, x) => s + f(x), 0) / FOLDS);
  const perSet = Object.fromEntries(
    [...new Set(all.map((i) => i.set))].map((set) => {
      const r = rates(all.filter((i) => i.set === set), app);
      const covered = all.find((i) => i.set === set)!.covered;
      return [set, r4(covered ? r.coveredRefused : r.offTopicRefused)];
    }),
  );
  return {
    folds: folds.map(({ app: _, ...f }) => ({
      ...f,
      coveredRefused: r4(f.coveredRefused),
      offTopicRefused: r4(f.offTopicRefused),
    })),
    heldOut: {
      coveredRefused: mean((f) => f.coveredRefused),
      offTopicRefused: mean((f) => f.offTopicRefused),
    },
    // The app's thresholds on the same folds: whether picking beats keeping them.
    appHeldOut: {
      coveredRefused: mean((f) => f.app.coveredRefused),
      offTopicRefused: mean((f) => f.app.offTopicRefused),
    },
    pickedOnAll: pick(items),
    app: { ...app, ...rates(items, app) },
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
