/**
 * Answer eval on a site's own corpus/ (ours, or an owner's), indexed as `deno task build`
 * indexes it: questions asked through POST /api/chat on the app's own handler, each under the
 * interface of its language, then the off-topic questions of tests/fixtures/offtopic/.
 *
 *   deno task eval:answers --site [--queries q.jsonl [--qrels judged.tsv]] [--model ID]
 *     [--details out.jsonl]
 *
 * Without `--queries`, our site's judged visitor questions (tests/fixtures/site_qrels/:
 * Portuguese, English, and English about Portuguese-only pages). An owner's questions are BEIR
 * jsonl lines, `{"_id", "text", "metadata": {"lang"?, "set"?}}` (the language is read from the
 * text when not given), judged when `--qrels` (BEIR tsv: question id, passage id as in
 * `--details`, grade) names their passages. A question is answered when the answer cites a
 * passage judged relevant to it. Prints one JSON line: per set and overall, the share told "not
 * covered", the mean words and, for judged questions, the share answered and the reasons of
 * the misses (as `eval:answers --qrels`); the off-topic questions' share told "not covered".
 * `--details` writes one JSON line per question, with the passages it cited.
 */
import { parseArgs } from "node:util";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { detectLang } from "@/lib/search/detect_lang.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { OFFLINE_MODEL_ID } from "@/lib/models/catalog.ts";
import { type Asker, chatAsker, citedPassages, offeredPassages } from "@/lib/eval/chat_turns.ts";
import { prepareDetailsFile } from "@/lib/eval/details_file.ts";
import {
  type AnswerRecord,
  missReason,
  saysNotCovered,
  wordCount,
} from "@/lib/eval/answer_metrics.ts";
import { loadSiteIndex, SITE_QRELS, type SiteIndex } from "./eval_site.ts";
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
  /** Why it missed, or "answered", for a judged question. */
  why?: string;
  /** The passages offered as related questions under the answer, when there were some. */
  related?: string[];
  /** A judged question missed whose judged passage is offered as a related question. */
  offered?: boolean;
}

/** A question to ask, as BEIR jsonl writes it; ours carry their set and language. */
interface Question {
  _id: string;
  text: string;
  metadata?: { set?: string; lang?: string };
}

/** The questions and, when there are, the passages judged relevant to each. */
interface Questions {
  queries: Question[];
  qrels: Map<string, Map<string, number>> | null;
}

/** The embedded search over the site's passages, as the app searches its built index. */
function siteSearch(set: SiteIndex): SiteSearch {
  return engineSiteSearch(new SearchEngine(set.build()), {
    passages: set.passages.length,
    documents: new Set(set.passages.map((p) => p.docId)).size,
  });
}

/** The passage a cited URL stands for: the app makes each passage's URL absolute. */
function sourceNamer(set: SiteIndex): (url: string) => string | null {
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

/** The questions, asked, and judged by the passages they cite when judgements are given. */
async function askQuestions(questions: Questions, ask: Asker): Promise<SiteAnswer[]> {
  const out: SiteAnswer[] = [];
  for (const [i, q] of questions.queries.entries()) {
    const lang = q.metadata?.lang === "en" || q.metadata?.lang === "pt"
      ? q.metadata.lang
      : detectLang(q.text, "pt");
    const turn = await ask(i, q.text, acceptLanguage(lang));
    const { text, valid, sources } = turn;
    const related = offeredPassages(turn);
    const cited = citedPassages(text, sources);
    const record: AnswerRecord = {
      answer: text,
      gold: [],
      validCitations: valid,
      notCovered: saysNotCovered(text, valid),
    };
    const grades = questions.qrels?.get(q._id);
    const judged = new Set([...(grades ?? [])].filter(([, g]) => g > 0).map(([id]) => id));
    const order = [...sources.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    const at = order.findIndex((id) => judged.has(id));
    const why = judged.size ? missReason(record, cited, judged, at < 0 ? null : at + 1) : null;
    out.push({
      id: q._id,
      set: q.metadata?.set ?? "questions",
      question: q.text,
      answer: text,
      cited,
      not_covered: record.notCovered,
      words: wordCount(text),
      ...(why ? { why } : {}),
      ...(related.length ? { related } : {}),
      ...(why && why !== "answered" && related.some((id) => judged.has(id))
        ? { offered: true }
        : {}),
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

/** Shares per set and overall; for judged questions, answered and the reasons of the misses. */
function summarize(answers: readonly SiteAnswer[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [...new Set(answers.map((a) => a.set)), "all"]) {
    const rs = answers.filter((a) => name === "all" || a.set === name);
    const judged = rs.filter((r) => r.why !== undefined);
    const why: Record<string, number> = {};
    for (const r of judged) why[r.why!] = (why[r.why!] ?? 0) + 1;
    out[name] = {
      questions: rs.length,
      ...(judged.length
        ? {
          answered: round(judged.filter((r) => r.why === "answered").length / judged.length),
          answered_or_offered: round(
            judged.filter((r) => r.why === "answered" || r.offered).length / judged.length,
          ),
        }
        : {}),
      not_covered: round(rs.filter((r) => r.not_covered).length / rs.length),
      mean_words: round(rs.reduce((sum, r) => sum + r.words, 0) / rs.length),
      ...(judged.length ? { why } : {}),
    };
  }
  return out;
}

/** An owner's questions (and judgements), or our site's judged ones. */
function readQuestions(queries: string | undefined, qrels: string | undefined): Questions {
  const read = (path: string, flag: string) => {
    try {
      return readFileSync(path, "utf8");
    } catch {
      throw new Error(`Cannot read ${flag} "${path}": check the path`);
    }
  };
  if (!queries) {
    if (qrels) throw new Error("--qrels judges the questions of --queries: give both");
    return {
      queries: parseJsonl<Question>(read(SITE_QRELS + "queries.jsonl", "queries"), "queries"),
      qrels: parseQrels(read(SITE_QRELS + "qrels/test.tsv", "qrels")),
    };
  }
  return {
    queries: parseJsonl<Question>(read(queries, "--queries"), queries),
    qrels: qrels ? parseQrels(read(qrels, "--qrels")) : null,
  };
}

/** Runs the eval; returns the summary. */
export async function runSiteAnswerEval(args: string[]): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    args,
    options: {
      site: { type: "boolean", default: true },
      queries: { type: "string" },
      qrels: { type: "string" },
      model: { type: "string", default: OFFLINE_MODEL_ID },
      details: { type: "string" },
    },
  });
  const questions = readQuestions(values.queries, values.qrels);
  prepareDetailsFile(values.details);
  const index = await loadSiteIndex();
  const evalApp = await answerEvalApp(siteSearch(index));
  const t0 = performance.now();
  try {
    const ask = chatAsker(evalApp.app, values.model!, sourceNamer(index));
    const answers = await askQuestions(questions, ask);
    const offTopic = await askOffTopic(ask, answers.length);
    if (values.details) {
      writeFileSync(
        values.details,
        [...answers, ...offTopic].map((a) => JSON.stringify(a)).join("\n") + "\n",
      );
    }
    return {
      model: values.model,
      ...summarize(answers),
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
