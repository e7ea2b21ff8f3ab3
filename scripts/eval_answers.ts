/**
 * Answer eval: questions through the real chat path — POST /api/chat on the app's own
 * handler, in process, with in-memory KV — so the search tool, the model and the
 * citation filter all take part, exactly as for a visitor.
 *
 *   deno task eval:answers --corpus corpus.jsonl --queries queries.jsonl [--model ID]
 *     [--lang pt|en] [--limit N] [--offtopic offtopic.jsonl] [--details out.jsonl]
 *     [--lexicon lexicon.tsv] [--qrels qrels.tsv] [--typos] [--postgres]
 *     [--translations other-language-corpus.jsonl]
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
 * not found), and the summary counts the reasons and gives `answered_or_offered`: the share
 * whose right entry the answer quotes or offers as a related question under it
 * (lib/text/related_questions.ts). Questions in the other language than the
 * corpus's (`--lang`) are translated with the shipped lexicon, as the app does on a
 * one-language site; `--lexicon <tsv>` searches with that file instead (docs/search.md),
 * `--lexicon off` with none. `--typos` asks every question (off-topic ones too) with one typo
 * (lib/eval/typos.ts). `--postgres` searches with the Postgres search instead of the embedded
 * index: the corpus is indexed into a schema of its own in SEARCH_DATABASE_URL, dropped after.
 * `--translations` adds the same site's pages in the other language (a BEIR corpus whose
 * documents have the ids of the ones they translate): the site is then bilingual, as the
 * Python FAQ is, with the pairs declared translations as a site's manifest does, and an answer
 * holds the gold span only when it quotes the page in the question's language.
 * Prints exactly one JSON line on stdout.
 */
import { parseArgs } from "node:util";
import { readFileSync, writeFileSync } from "node:fs";
import { toLang } from "@/lib/search/analyzer.ts";
import { type BeirDoc, parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { withTypo } from "@/lib/eval/typos.ts";
import { type Asker, chatAsker, citedPassages, offeredPassages } from "@/lib/eval/chat_turns.ts";
import { prepareDetailsFile } from "@/lib/eval/details_file.ts";
import { answerEvalApp, engineSiteSearch } from "./answer_eval_app.ts";
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
  "Usage: deno task eval:answers --corpus <corpus.jsonl> --queries <queries.jsonl> [--model ID] [--lang pt|en] [--limit N] [--offtopic <queries.jsonl>] [--details <out.jsonl>] [--lexicon <lexicon.tsv>] [--qrels <qrels.tsv>] [--typos] [--postgres] [--translations <corpus.jsonl>], or --site [--model ID] [--details <out.jsonl>]";

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

/** The eval's site: the corpus, and its pages in the other language when there are some. */
interface BeirSite {
  docs: readonly BeirDoc[];
  lang: "pt" | "en";
  /** The same site's pages in the other language, with the ids of the pages they translate. */
  translated?: readonly BeirDoc[];
}

/**
 * The site's passages, and its declared translations: a translated page is the document
 * `<lang>/<id>`, cited at `/<lang>/doc/<id>` (so that a citation still names the entry).
 */
function sitePassages(site: BeirSite): {
  passages: PassageInput[];
  translations: Record<string, string>;
} {
  const passages = site.docs.map((d) => beirPassage(d, site.lang));
  const other = site.lang === "pt" ? "en" : "pt";
  const own = new Set(site.docs.map((d) => d._id));
  const translations: Record<string, string> = {};
  for (const d of site.translated ?? []) {
    const id = `${other}/${d._id}`;
    const url = `/${other}/doc/${encodeURIComponent(d._id)}`;
    passages.push({ id, docId: id, title: d.title ?? "", url, lang: other, text: d.text });
    if (own.has(d._id)) translations[id] = d._id;
  }
  return { passages, translations };
}

/**
 * The Postgres search over a BEIR corpus, as `beirSiteSearch` builds the embedded one: indexed
 * into a schema of its own in the database at `url`, dropped by `close`.
 */
async function pgBeirSiteSearch(
  url: string | undefined,
  site: BeirSite,
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
    const { passages, translations } = sitePassages(site);
    await indexIntoPg(
      sql,
      passages.map((p) => ({
        id: p.id,
        contentHash: p.text,
        url: p.url,
        lang: p.lang as "pt" | "en",
        passages: [p],
        ...(translations[p.id] ? { translationOf: translations[p.id] } : {}),
      })),
      { batchDocs: 500 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  const lexicon = chosenLexicon(lexicons);
  return { search: createPgSiteSearch({ sql, deadlineMs: 30_000, lexicon }), close };
}

/**
 * The site search over BEIR documents, each cited at `/doc/<id>` (`translated`: the same
 * site's pages in the other language, see `sitePassages`).
 */
export function beirSiteSearch(
  docs: readonly BeirDoc[],
  lang: "pt" | "en",
  lexicons: LexiconChoice = DEFAULT_LEXICONS,
  translated: readonly BeirDoc[] = [],
): SiteSearch {
  const { passages, translations } = sitePassages({ docs, lang, translated });
  const engine = new SearchEngine(buildIndexData(passages, { translations }), lexicons);
  return engineSiteSearch(engine, { passages: passages.length, documents: passages.length });
}

/** Each BEIR document is cited at /doc/<id> (beirSiteSearch); the app makes the URL absolute. */
function beirSource(url: string): string | null {
  const doc = /\/doc\/([^/?#]+)$/.exec(url);
  return doc ? decodeURIComponent(doc[1]) : null;
}

/** The eval's inputs, read from the files its options name. */
interface AnswerInputs {
  docs: BeirDoc[];
  /** The site's pages in the other language (`--translations`), or none. */
  translated: BeirDoc[];
  queries: Query[];
  offTopic: Query[];
  qrels: Map<string, Map<string, number>> | null;
  lexicons: LexiconChoice;
}

/** The command line, checked. */
function parseOptions(args: string[]) {
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
      translations: { type: "string" },
    },
  });
  if (values.lang !== "pt" && values.lang !== "en") {
    throw new Error(`Unknown --lang "${values.lang}": use pt or en`);
  }
  return values;
}

type Options = ReturnType<typeof parseOptions>;

/** The corpus, the questions with gold spans, the off-topic ones, the judgements, the lexicons. */
function readInputs(values: Options): AnswerInputs {
  const typed = (q: Query): Query => values.typos ? { ...q, text: withTypo(q.text) } : q;
  const limit = values.limit ? Number(values.limit) : Infinity;
  const queries = parseJsonl<Query>(read(values.queries, "--queries"), values.queries!)
    .filter((q) => q.metadata?.answers?.length).slice(0, limit).map(typed);
  if (!queries.length) {
    throw new Error(`No query in "${values.queries}" has metadata.answers: add the gold spans`);
  }
  const docs = parseJsonl<BeirDoc>(read(values.corpus, "--corpus"), values.corpus!);
  return {
    docs,
    translated: values.translations ? translatedDocs(values.translations, docs) : [],
    queries,
    offTopic: values.offtopic
      ? parseJsonl<Query>(read(values.offtopic, "--offtopic"), values.offtopic).slice(0, limit)
        .map(typed)
      : [],
    qrels: values.qrels ? parseQrels(read(values.qrels, "--qrels")) : null,
    lexicons: lexiconChoice(values.lexicon, (path) => read(path, "--lexicon")),
  };
}

/**
 * The `--translations` corpus, refused when none of its ids is a document of the corpus: the
 * pages would be added as a second site with nothing declared a translation.
 */
function translatedDocs(path: string, docs: readonly BeirDoc[]): BeirDoc[] {
  const translated = parseJsonl<BeirDoc>(read(path, "--translations"), path);
  const ids = new Set(docs.map((d) => d._id));
  if (!translated.some((d) => ids.has(d._id))) {
    throw new Error(
      `No document of --translations "${path}" has the id of a --corpus document: a translation keeps the id of the page it translates`,
    );
  }
  return translated;
}

/** What asking every question gave: the records, the `--details` lines, the miss reasons. */
interface Asked {
  records: AnswerRecord[];
  offRecords: AnswerRecord[];
  details: string[];
  reasons: Record<string, number>;
  /** Questions missed whose right entry was offered as a related question under the answer. */
  offered: number;
  /** Off-topic questions whose answer offered related questions all the same. */
  offTopicOffered: number;
}

/** Asks the covered questions, then the off-topic ones, and reads each answer. */
async function askAll(ask: Asker, inputs: AnswerInputs): Promise<Asked> {
  const out: Asked = {
    records: [],
    offRecords: [],
    details: [],
    reasons: {},
    offered: 0,
    offTopicOffered: 0,
  };
  const all = [
    ...inputs.queries.map((q) => ({ q, gold: q.metadata!.answers!, into: out.records })),
    ...inputs.offTopic.map((q) => ({ q, gold: [] as string[], into: out.offRecords })),
  ];
  for (const [i, { q, gold, into }] of all.entries()) {
    const turn = await ask(i, q.text);
    const { text, valid, sources } = turn;
    const record = {
      answer: text,
      gold,
      validCitations: valid,
      notCovered: saysNotCovered(text, valid),
    };
    into.push(record);
    const goldEntries = new Set(inputs.qrels?.get(q._id)?.keys() ?? []);
    const cited = citedPassages(text, sources);
    const order = [...sources.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
    const at = order.findIndex((id) => goldEntries.has(id));
    const why = gold.length && goldEntries.size
      ? missReason(record, cited, goldEntries, at < 0 ? null : at + 1)
      : undefined;
    if (why) out.reasons[why] = (out.reasons[why] ?? 0) + 1;
    const offered = offeredPassages(turn);
    if (why && why !== "answered" && offered.some((id) => goldEntries.has(id))) out.offered++;
    if (into === out.offRecords && offered.length) out.offTopicOffered++;
    out.details.push(JSON.stringify({
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
      ...(offered.length ? { related: offered } : {}),
    }));
  }
  return out;
}

/**
 * The share of the questions whose right entry the visitor reaches from the answer: quoted,
 * or offered as a related question under it (one click away).
 */
function reachedSummary(asked: Asked): Record<string, number> {
  const n = asked.records.length;
  if (!n) return {};
  const answered = asked.reasons["answered"] ?? 0;
  return { answered_or_offered: Number(((answered + asked.offered) / n).toFixed(4)) };
}

/**
 * The share of the off-topic questions told "not covered", and of those shown related
 * questions, when there were some.
 */
function offTopicSummary(asked: Asked): Record<string, unknown> {
  const n = asked.offRecords.length;
  if (!n) return {};
  const refused = asked.offRecords.filter((r) => r.notCovered).length / n;
  return {
    offtopic: {
      questions: n,
      not_covered: Number(refused.toFixed(4)),
      with_related: Number((asked.offTopicOffered / n).toFixed(4)),
    },
  };
}

/** Run the eval and return its summary; `pgUrl` is the database `--postgres` searches. */
export async function runAnswerEval(
  args: string[],
  pgUrl = Deno.env.get("SEARCH_DATABASE_URL"),
): Promise<Record<string, unknown>> {
  const values = parseOptions(args);
  const inputs = readInputs(values);
  prepareDetailsFile(values.details);
  const lang = toLang(values.lang);
  const site = values.postgres
    ? await pgBeirSiteSearch(
      pgUrl,
      { docs: inputs.docs, lang, translated: inputs.translated },
      inputs.lexicons,
    )
    : {
      search: beirSiteSearch(inputs.docs, lang, inputs.lexicons, inputs.translated),
      close: async () => {},
    };
  const evalApp = await answerEvalApp(site.search);
  const t0 = performance.now();
  let asked: Asked;
  try {
    asked = await askAll(chatAsker(evalApp.app, values.model!, beirSource), inputs);
  } finally {
    await evalApp.close();
    await site.close();
  }
  if (values.details) writeFileSync(values.details, asked.details.join("\n") + "\n");
  return {
    model: values.model,
    ...summarize(asked.records),
    ...(inputs.qrels ? { why: asked.reasons, ...reachedSummary(asked) } : {}),
    ...offTopicSummary(asked),
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
