/**
 * Every answer set at once: the offline answer and the retrieval on each site the project
 * measures (the Python FAQ's dev and held-out questions, the Debian FAQ, the Securing Debian
 * Manual's and the Debian Administrator's Handbook's two blind sets each, FaQuAD), one line a
 * set, so a change is read on all of them before it lands. Each line is what `deno task
 * eval:answers` and `deno task eval` print for that set (the command is in BENCHMARKS.md).
 *
 *   deno task eval:sites [--only <name>…] [--details <folder>] [--json]
 *
 * `--details` writes each set's per-question answers to `<folder>/<name>.jsonl`, to compare two
 * trees answer by answer (`cmp`). Our own site's questions have their own command
 * (`deno task eval:answers --site`): they are judged by passage, not by a gold span.
 */
import { parseArgs } from "node:util";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runAnswerEval } from "./eval_answers.ts";
import { runEval } from "./eval.ts";

const FIXTURES = fileURLToPath(new URL("../tests/fixtures/", import.meta.url));

/** One question set over one corpus. */
export interface AnswerSet {
  name: string;
  /** The fixture folder its corpus is in. */
  site: string;
  lang: "pt" | "en";
  corpus: string;
  queries: string;
  qrels: string;
  offtopic?: string;
}

/** The sets, in the order BENCHMARKS.md lists them. */
export function answerSets(): AnswerSet[] {
  const sets: AnswerSet[] = [];
  for (const lang of ["pt", "en"] as const) {
    const at = (site: string, file: string) => `${FIXTURES}${site}/${file}`;
    // The Python FAQ's held-out and dev questions, each with its own off-topic set.
    for (const [set, prefix] of [["heldout", "heldout_"], ["dev", ""]]) {
      sets.push({
        name: `pyfaq-${set}-${lang}`,
        site: "pyfaq",
        lang,
        corpus: at("pyfaq", `corpus_${lang}.jsonl`),
        queries: at("pyfaq", `${prefix}queries_${lang}.jsonl`),
        qrels: at("pyfaq", `${prefix}qrels_${lang}.tsv`),
        offtopic: at("offtopic", `${prefix}queries_${lang}.jsonl`),
      });
    }
    sets.push({
      name: `debfaq-${lang}`,
      site: "debfaq",
      lang,
      corpus: at("debfaq", `corpus_${lang}.jsonl`),
      queries: at("debfaq", `heldout_queries_${lang}.jsonl`),
      qrels: at("debfaq", `heldout_qrels_${lang}.tsv`),
    });
    for (const site of ["harden", "handbook"]) {
      for (const set of ["heldout", "heldout2"]) {
        sets.push({
          name: `${site}${set === "heldout" ? "" : "2"}-${lang}`,
          site,
          lang,
          corpus: at(site, `corpus_${lang}.jsonl`),
          queries: at(site, `${set}_queries_${lang}.jsonl`),
          qrels: at(site, `${set}_qrels_${lang}.tsv`),
          offtopic: set === "heldout" ? at(site, `offtopic_queries_${lang}.jsonl`) : undefined,
        });
      }
    }
  }
  sets.push({
    name: "faquad",
    site: "faquad",
    lang: "pt",
    corpus: `${FIXTURES}faquad/corpus.jsonl`,
    queries: `${FIXTURES}faquad/queries.jsonl`,
    qrels: `${FIXTURES}faquad/qrels/test.tsv`,
  });
  return sets;
}

/** One set's figures: the answers' and the retrieval's. */
export interface SetFigures {
  name: string;
  gold: number;
  notCovered: number;
  words: number;
  offTopicRefused: number | null;
  ndcg10: number;
}

/** Answers and retrieval of one set; its per-question answers to `details` when given. */
export async function measure(set: AnswerSet, details?: string): Promise<SetFigures> {
  const common = ["--corpus", set.corpus, "--queries", set.queries, "--lang", set.lang];
  // FaQuAD's gold spans are judged by span alone: its qrels are the retrieval's.
  const answerArgs = [...common, ...(set.name === "faquad" ? [] : ["--qrels", set.qrels])];
  if (set.offtopic) answerArgs.push("--offtopic", set.offtopic);
  if (details) answerArgs.push("--details", details);
  const answers = await runAnswerEval(answerArgs);
  const retrieval = runEval([...common, "--qrels", set.qrels]);
  const offtopic = answers.offtopic as { not_covered: number } | undefined;
  return {
    name: set.name,
    gold: answers.gold_contained as number,
    notCovered: answers.not_covered as number,
    words: answers.mean_words as number,
    offTopicRefused: offtopic?.not_covered ?? null,
    ndcg10: retrieval["ndcg@10"],
  };
}

function line(f: SetFigures): string {
  const cell = (v: number | null, width: number) =>
    (v === null ? "—" : v.toFixed(3)).padStart(width);
  return `${f.name.padEnd(18)}${cell(f.gold, 7)}${cell(f.notCovered, 13)}${
    f.words.toFixed(1).padStart(7)
  }${cell(f.offTopicRefused, 11)}${cell(f.ndcg10, 9)}`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      only: { type: "string", multiple: true },
      details: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const all = answerSets();
  const sets = values.only?.length ? all.filter((s) => values.only!.includes(s.name)) : all;
  if (!sets.length) {
    console.error(
      `No set named ${values.only!.join(", ")}: one of ${all.map((s) => s.name).join(", ")}`,
    );
    Deno.exit(2);
  }
  if (values.details) mkdirSync(values.details, { recursive: true });
  if (!values.json) {
    console.log(
      `${"set".padEnd(18)}${"gold".padStart(7)}${"not covered".padStart(13)}${"words".padStart(7)}${
        "off-topic".padStart(11)
      }${"nDCG@10".padStart(9)}`,
    );
  }
  const out: SetFigures[] = [];
  for (const set of sets) {
    const figures = await measure(set, values.details && `${values.details}/${set.name}.jsonl`);
    out.push(figures);
    if (!values.json) console.log(line(figures));
  }
  if (values.json) console.log(JSON.stringify(out, null, 2));
}
