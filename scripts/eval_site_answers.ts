/**
 * Answer eval on our own site: the judged visitor questions of tests/fixtures/site_qrels/
 * (Portuguese, English, and English about Portuguese-only pages) asked through POST /api/chat
 * on the app's own handler, each under the interface of its language, over corpus/ indexed as
 * `deno task build` indexes it; then the off-topic questions of tests/fixtures/offtopic/.
 *
 *   deno task eval:answers --site [--model ID] [--details out.jsonl]
 *
 * The site's questions are judged by passage, not by answer span: a question is answered when
 * the answer cites a passage judged relevant to it. Prints one JSON line: per set and overall,
 * the share answered, the share told "not covered", the mean words and the reasons of the
 * misses (as `eval:answers --qrels`); the off-topic questions' share told "not covered".
 * `--details` writes one JSON line per question, with the passages it cited.
 */
import { parseArgs } from "node:util";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseJsonl } from "@/lib/search/beir.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { OFFLINE_MODEL_ID } from "@/lib/models/catalog.ts";
import { type Asker, chatAsker, citedPassages } from "@/lib/eval/chat_turns.ts";
import { prepareDetailsFile } from "@/lib/eval/details_file.ts";
import {
  type AnswerRecord,
  missReason,
  saysNotCovered,
  wordCount,
} from "@/lib/eval/answer_metrics.ts";
import { loadSiteSet, SITE_SETS, type SiteSet } from "./eval_site.ts";
import { answerEvalApp, engineSiteSearch } from "./answer_eval_app.ts";

const OFFTOPIC = fileURLToPath(new URL("../tests/fixtures/offtopic/", import.meta.url));

/** One question's outcome, as `--details` writes it. */
interface SiteAnswer {
  id: string;
  set: string;
  question: string;
  answer: string;
  cited: string[];
  not_covered: boolean;
  words: number;
  why?: string;
}

/** The embedded search over our site's passages, as the app searches its built index. */
function siteSearch(set: SiteSet): SiteSearch {
  return engineSiteSearch(new SearchEngine(set.build()), {
    passages: set.passages.length,
    documents: new Set(set.passages.map((p) => p.docId)).size,
  });
}

/** The passage a cited URL stands for: the app makes each passage's URL absolute. */
function sourceNamer(set: SiteSet): (url: string) => string | null {
  const byPath = new Map<string, string>();
  for (const p of set.passages) if (p.url) byPath.set(p.url, p.id);
  return (url) => {
    const { pathname, hash } = new URL(url, "http://site.invalid");
    return byPath.get(pathname + hash) ?? null;
  };
}

/** A visitor question under the interface of its language. */
function acceptLanguage(lang: "pt" | "en"): Record<string, string> {
  return { "accept-language": lang === "en" ? "en-US,en" : "pt-BR,pt" };
}

/** The judged questions, asked and judged by the passages they cite. */
async function askJudged(set: SiteSet, ask: Asker): Promise<SiteAnswer[]> {
  const out: SiteAnswer[] = [];
  for (const [i, q] of set.queries.entries()) {
    const { text, valid, sources } = await ask(i, q.text, acceptLanguage(q.metadata.lang));
    const judged = new Map([...(set.qrels.get(q._id) ?? [])].filter(([, grade]) => grade > 0));
    const cited = citedPassages(text, sources);
    const record: AnswerRecord = {
      answer: text,
      gold: [],
      validCitations: valid,
      notCovered: saysNotCovered(text, valid),
    };
    const order = [...sources.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    const at = order.findIndex((id) => judged.has(id));
    out.push({
      id: q._id,
      set: q.metadata.set,
      question: q.text,
      answer: text,
      cited,
      not_covered: record.notCovered,
      words: wordCount(text),
      why: missReason(record, cited, new Set(judged.keys()), at < 0 ? null : at + 1),
    });
  }
  return out;
}

/** The off-topic questions of both languages, each under its language's interface. */
async function askOffTopic(ask: Asker, from: number): Promise<SiteAnswer[]> {
  const out: SiteAnswer[] = [];
  for (const lang of ["pt", "en"] as const) {
    for (const file of [`queries_${lang}.jsonl`, `heldout_queries_${lang}.jsonl`]) {
      const path = OFFTOPIC + file;
      for (const q of parseJsonl<{ _id: string; text: string }>(readFileSync(path, "utf8"), path)) {
        const { text, valid } = await ask(from + out.length, q.text, acceptLanguage(lang));
        out.push({
          id: q._id,
          set: `offtopic-${lang}`,
          question: q.text,
          answer: text,
          cited: [],
          not_covered: saysNotCovered(text, valid),
          words: wordCount(text),
        });
      }
    }
  }
  return out;
}

const round = (x: number) => Number(x.toFixed(4));

/** Shares per set and overall; reasons of the misses counted. */
function summarize(answers: readonly SiteAnswer[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [...SITE_SETS, "all"]) {
    const rs = answers.filter((a) => name === "all" || a.set === name);
    if (!rs.length) continue;
    const why: Record<string, number> = {};
    for (const r of rs) why[r.why!] = (why[r.why!] ?? 0) + 1;
    out[name] = {
      questions: rs.length,
      answered: round(rs.filter((r) => r.why === "answered").length / rs.length),
      not_covered: round(rs.filter((r) => r.not_covered).length / rs.length),
      mean_words: round(rs.reduce((sum, r) => sum + r.words, 0) / rs.length),
      why,
    };
  }
  return out;
}

/** Runs the eval; returns the summary. */
export async function runSiteAnswerEval(args: string[]): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    args,
    options: {
      site: { type: "boolean", default: true },
      model: { type: "string", default: OFFLINE_MODEL_ID },
      details: { type: "string" },
    },
  });
  const set = await loadSiteSet();
  prepareDetailsFile(values.details);
  const evalApp = await answerEvalApp(siteSearch(set));
  const t0 = performance.now();
  try {
    const ask = chatAsker(evalApp.app, values.model!, sourceNamer(set));
    const judged = await askJudged(set, ask);
    const offTopic = await askOffTopic(ask, judged.length);
    if (values.details) {
      writeFileSync(
        values.details,
        [...judged, ...offTopic].map((a) => JSON.stringify(a)).join("\n") + "\n",
      );
    }
    return {
      model: values.model,
      ...summarize(judged),
      offtopic: {
        questions: offTopic.length,
        not_covered: round(offTopic.filter((a) => a.not_covered).length / offTopic.length),
      },
      seconds: round((performance.now() - t0) / 1000),
    };
  } finally {
    await evalApp.close();
  }
}
