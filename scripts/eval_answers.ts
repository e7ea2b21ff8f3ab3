/**
 * Answer eval: questions through the real chat path — POST /api/chat on the app's own
 * handler, in process, with in-memory KV — so the search tool, the model and the
 * citation filter all take part, exactly as for a visitor.
 *
 *   deno task eval:answers --corpus corpus.jsonl --queries queries.jsonl [--model ID]
 *     [--lang pt|en] [--limit N] [--offtopic offtopic.jsonl] [--details out.jsonl]
 *     [--lexicon lexicon.tsv] [--qrels qrels.tsv] [--typos] [--postgres]
 *   deno task eval:answers --site [--model ID] [--details out.jsonl]   (our own site,
 *     scripts/eval_site_answers.ts)
 *
 * The corpus (BEIR jsonl) is indexed in memory with the app's builder; each document
 * gets a public URL so it can be cited. Queries carry their gold spans in
 * `metadata.answers` (FaQuAD's layout). The model is the offline one unless --model
 * names another of the catalog (its keys come from the environment). `--offtopic` adds
 * questions the site does not answer: the summary gains their share answered "not
 * covered". `--details` writes one JSON line per question (the question, its gold, the
 * answer, whether it held the gold or said "not covered"), so a site owner sees which
 * questions fail and why; with `--qrels` (the gold entry of each question) each line also
 * says which entries the answer cited, the gold entry's rank among the search's results and
 * the reason of a miss (refused, right entry but other sentences, right entry ranked lower,
 * not found), and the summary counts the reasons. Questions in the other language than the
 * corpus's (`--lang`) are translated with the shipped lexicon, as the app does on a
 * one-language site; `--lexicon <tsv>` searches with that file instead (docs/search.md),
 * `--lexicon off` with none. `--typos` asks every question (off-topic ones too) with one typo
 * (lib/eval/typos.ts). `--postgres` searches with the Postgres search instead of the embedded
 * index: the corpus is indexed into a schema of its own in SEARCH_DATABASE_URL, dropped after.
 * Prints exactly one JSON line on stdout.
 */
import { parseArgs } from "node:util";
import { readFileSync, writeFileSync } from "node:fs";
import defaultConfig from "@/fresh.config.ts";
import { createServerApp } from "@/lib/server.ts";
import { toLang } from "@/lib/search/analyzer.ts";
import { type BeirDoc, parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { withTypo } from "@/lib/eval/typos.ts";
import { chatAsker, citedPassages } from "@/lib/eval/chat_turns.ts";
import { runSiteAnswerEval } from "./eval_site_answers.ts";
import { connectPg } from "@/lib/search/postgres/client.ts";
import { indexIntoPg } from "@/lib/search/postgres/pg_index.ts";
import { createPgSiteSearch } from "@/lib/search/postgres/pg_search.ts";
import { createSchema, dropSchema } from "@/lib/search/postgres/schema.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import {
  chosenLexicon,
  DEFAULT_LEXICONS,
  type LexiconChoice,
  lexiconChoice,
} from "@/lib/search/lexicon.ts";
import { buildIndexData, type PassageInput } from "@/lib/search/index_data.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { OFFLINE_MODEL_ID } from "@/lib/models/catalog.ts";
import {
  type AnswerRecord,
  containsGold,
  missReason,
  saysNotCovered,
  summarize,
  wordCount,
} from "@/lib/eval/answer_metrics.ts";

const USAGE =
  "Usage: deno task eval:answers --corpus <corpus.jsonl> --queries <queries.jsonl> [--model ID] [--lang pt|en] [--limit N] [--offtopic <queries.jsonl>] [--details <out.jsonl>] [--lexicon <lexicon.tsv>] [--qrels <qrels.tsv>] [--typos] [--postgres], or --site [--model ID] [--details <out.jsonl>]";

interface Query {
  _id: string;
  text: string;
  metadata?: { answers?: string[] };
}

function read(path: string | undefined, flag: string): string {
  if (!path) throw new Error(`Missing ${flag}. ${USAGE}`);
  try {
    return readFileSync(path, "utf8");
  } catch {
    throw new Error(`Cannot read ${flag} "${path}": check the path. ${USAGE}`);
  }
}

/** A BEIR document as the one passage of its page, cited at `/doc/<id>`. */
function beirPassage(d: BeirDoc, lang: "pt" | "en"): PassageInput {
  const url = `/doc/${encodeURIComponent(d._id)}`;
  return { id: d._id, docId: d._id, title: d.title ?? "", url, lang, text: d.text };
}

/**
 * The Postgres search over a BEIR corpus, as `beirSiteSearch` builds the embedded one: indexed
 * into a schema of its own in the database at `url`, dropped by `close`.
 */
async function pgBeirSiteSearch(
  url: string | undefined,
  docs: readonly BeirDoc[],
  lang: "pt" | "en",
  lexicons: LexiconChoice,
): Promise<{ search: SiteSearch; close: () => Promise<void> }> {
  if (!url) {
    throw new Error("--postgres needs SEARCH_DATABASE_URL (scripts/pg_cluster.sh starts one).");
  }
  const schema = `answers_${Deno.pid}`;
  const sql = connectPg(url, { schema, max: 2, statementTimeoutMs: 120_000 });
  const close = async () => {
    await dropSchema(sql, schema).catch(() => {});
    await sql.end({ timeout: 1 });
  };
  try {
    await createSchema(sql, schema);
    const pages = docs.map((d) => beirPassage(d, lang));
    await indexIntoPg(
      sql,
      pages.map((p) => ({ id: p.id, contentHash: p.text, url: p.url, lang, passages: [p] })),
      { batchDocs: 500 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  const lexicon = chosenLexicon(lexicons);
  return { search: createPgSiteSearch({ sql, deadlineMs: 30_000, lexicon }), close };
}

/** The site search over BEIR documents, each cited at `/doc/<id>`. */
export function beirSiteSearch(
  docs: readonly BeirDoc[],
  lang: "pt" | "en",
  lexicons: LexiconChoice = DEFAULT_LEXICONS,
): SiteSearch {
  const engine = new SearchEngine(
    buildIndexData(docs.map((d) => beirPassage(d, lang))),
    lexicons,
  );
  return {
    search: (query, options) => engine.search(query, options),
    passage: (id) => engine.passageById(id),
    status: () => ({
      status: "ok",
      passages: docs.length,
      documents: docs.length,
      mode: "lexical",
      embeddingModel: null,
    }),
  };
}

/** Each BEIR document is cited at /doc/<id> (beirSiteSearch); the app makes the URL absolute. */
function beirSource(url: string): string | null {
  const doc = /\/doc\/([^/?#]+)$/.exec(url);
  return doc ? decodeURIComponent(doc[1]) : null;
}

/** Run the eval and return its summary; `pgUrl` is the database `--postgres` searches. */
export async function runAnswerEval(
  args: string[],
  pgUrl = Deno.env.get("SEARCH_DATABASE_URL"),
): Promise<Record<string, unknown>> {
  const { values } = parseArgs({
    args,
    options: {
      corpus: { type: "string" },
      queries: { type: "string" },
      model: { type: "string", default: OFFLINE_MODEL_ID },
      lang: { type: "string", default: "pt" },
      limit: { type: "string" },
      offtopic: { type: "string" },
      details: { type: "string" },
      lexicon: { type: "string" },
      qrels: { type: "string" },
      typos: { type: "boolean", default: false },
      postgres: { type: "boolean", default: false },
    },
  });
  const typed = (q: Query): Query => values.typos ? { ...q, text: withTypo(q.text) } : q;
  if (values.lang !== "pt" && values.lang !== "en") {
    throw new Error(`Unknown --lang "${values.lang}": use pt or en`);
  }
  const docs = parseJsonl<BeirDoc>(read(values.corpus, "--corpus"), values.corpus!);
  const limit = values.limit ? Number(values.limit) : Infinity;
  const queries = parseJsonl<Query>(read(values.queries, "--queries"), values.queries!)
    .filter((q) => q.metadata?.answers?.length).slice(0, limit).map(typed);
  if (!queries.length) {
    throw new Error(`No query in "${values.queries}" has metadata.answers: add the gold spans`);
  }
  const qrels = values.qrels ? parseQrels(read(values.qrels, "--qrels")) : null;
  const offTopic = values.offtopic
    ? parseJsonl<Query>(read(values.offtopic, "--offtopic"), values.offtopic).slice(0, limit)
      .map(typed)
    : [];
  const lexicons = lexiconChoice(values.lexicon, (path) => read(path, "--lexicon"));
  const site = values.postgres
    ? await pgBeirSiteSearch(pgUrl, docs, toLang(values.lang), lexicons)
    : { search: beirSiteSearch(docs, toLang(values.lang), lexicons), close: async () => {} };
  const kv = await Deno.openKv(":memory:");
  const big = { requestsPerMinute: 1e9, tokensPerDay: 1e12 };
  const { app } = await createServerApp({
    env: Deno.env.toObject(),
    kv,
    // One JSON line is the output: no request log lines around it.
    requestLog: null,
    search: site.search,
    // No page is rendered: the eval needs no island bundles.
    islandAssets: { boot: "", islands: {}, preload: {} },
    config: { ...defaultConfig, limits: { visitor: big, ip: big } },
  });
  const records: AnswerRecord[] = [];
  const offRecords: AnswerRecord[] = [];
  const details: string[] = [];
  const reasons: Record<string, number> = {};
  const ask = chatAsker(app, values.model!, beirSource);
  const t0 = performance.now();
  try {
    const all = [
      ...queries.map((q) => ({ q, gold: q.metadata!.answers!, into: records })),
      ...offTopic.map((q) => ({ q, gold: [] as string[], into: offRecords })),
    ];
    for (const [i, { q, gold, into }] of all.entries()) {
      const { text, valid, sources } = await ask(i, q.text);
      const record = {
        answer: text,
        gold,
        validCitations: valid,
        notCovered: saysNotCovered(text, valid),
      };
      into.push(record);
      const goldEntries = new Set(qrels?.get(q._id)?.keys() ?? []);
      const cited = citedPassages(text, sources);
      const order = [...sources.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
      const at = order.findIndex((id) => goldEntries.has(id));
      const why = gold.length && goldEntries.size
        ? missReason(record, cited, goldEntries, at < 0 ? null : at + 1)
        : undefined;
      if (why) reasons[why] = (reasons[why] ?? 0) + 1;
      details.push(JSON.stringify({
        id: q._id,
        question: q.text,
        gold,
        answer: text,
        held_gold: gold.length ? containsGold(text, gold) : null,
        not_covered: record.notCovered,
        words: wordCount(text),
        ...(why
          ? { cited, gold_entry: [...goldEntries], gold_rank: at < 0 ? null : at + 1, why }
          : {}),
      }));
    }
  } finally {
    // The last turn's token count is written after its stream ends: let it land first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    kv.close();
    await site.close();
  }
  if (values.details) writeFileSync(values.details, details.join("\n") + "\n");
  const off = offRecords.length
    ? {
      offtopic: {
        questions: offRecords.length,
        not_covered: Number(
          (offRecords.filter((r) => r.notCovered).length / offRecords.length).toFixed(4),
        ),
      },
    }
    : {};
  return {
    model: values.model,
    ...summarize(records),
    ...(qrels ? { why: reasons } : {}),
    ...off,
    seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
  };
}

if (import.meta.main) {
  try {
    // Our own site, judged by passage: scripts/eval_site_answers.ts.
    const run = Deno.args.includes("--site") ? runSiteAnswerEval : runAnswerEval;
    console.log(JSON.stringify(await run(Deno.args)));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(2);
  }
}
