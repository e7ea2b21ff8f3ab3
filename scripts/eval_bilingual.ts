/**
 * Retrieval on a partly translated bilingual site: the Python FAQ (tests/fixtures/pyfaq/) with
 * each entry, by a hash of its id, in both languages, in Portuguese only or in English only
 * (a third each; three draws shift which third is which). Every dev and held-out question of
 * both languages is asked; its relevant page is its entry in the question's language when that
 * exists ("own"), else the entry's only page, in the other language ("cross"). Pages in both
 * languages are declared translations of each other, as a site's manifest does.
 *
 *   deno task eval:bilingual [--cross-weight 0.7,1] [--lexicon off|lexicon.tsv] [--postgres]
 *
 * Prints one JSON line: nDCG@10 per draw, language and kind, and their means, per weight of the
 * translated ranking (lib/search/engine.ts BILINGUAL_CROSS_WEIGHT when not given). With
 * `--postgres`, of the Postgres search instead (SEARCH_DATABASE_URL; each draw indexed into a
 * schema of its own, dropped after).
 */
import { parseArgs } from "node:util";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BeirDoc, ndcgAt, parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import { BILINGUAL_CROSS_WEIGHT, SearchEngine } from "@/lib/search/engine.ts";
import { buildIndexData, type PassageInput } from "@/lib/search/index_data.ts";
import { chosenLexicon, type Lexicon, lexiconChoice } from "@/lib/search/lexicon.ts";
import type { Lang } from "@/lib/search/analyzer.ts";
import { connectPg } from "@/lib/search/postgres/client.ts";
import { indexIntoPg } from "@/lib/search/postgres/pg_index.ts";
import { createPgSiteSearch } from "@/lib/search/postgres/pg_search.ts";
import { createSchema, dropSchema } from "@/lib/search/postgres/schema.ts";

const PYFAQ = fileURLToPath(new URL("../tests/fixtures/pyfaq/", import.meta.url));
const LANGS = ["pt", "en"] as const;
const DRAWS = 3;
const SETS = [["queries", "qrels"], ["heldout_queries", "heldout_qrels"]] as const;

/** Which third an entry is in: 0 both languages, 1 Portuguese only, 2 English only. */
function third(id: string, draw: number): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return (h + draw) % 3;
}

/** The site of one draw: its passages (ids `<lang>:<entry>`) and declared translations. */
function siteOf(draw: number): { passages: PassageInput[]; translations: Record<string, string> } {
  const passages: PassageInput[] = [];
  const translations: Record<string, string> = {};
  for (const lang of LANGS) {
    const file = `${PYFAQ}corpus_${lang}.jsonl`;
    const docs = parseJsonl<BeirDoc>(readFileSync(file, "utf8"), file);
    for (const d of docs) {
      const t = third(d._id, draw);
      if (t === (lang === "pt" ? 2 : 1)) continue;
      const id = `${lang}:${d._id}`;
      passages.push({ id, docId: id, title: d.title ?? "", url: null, lang, text: d.text });
      if (lang === "en" && t === 0) translations[id] = `pt:${d._id}`;
    }
  }
  return { passages, translations };
}

/** Every dev and held-out question of `lang` with its judged entries. */
function judgedQuestions(lang: Lang): Array<{ text: string; rel: Map<string, number> }> {
  return SETS.flatMap(([queries, qrels]) => {
    const file = `${PYFAQ}${queries}_${lang}.jsonl`;
    const judged = parseQrels(readFileSync(`${PYFAQ}${qrels}_${lang}.tsv`, "utf8"));
    return parseJsonl<BeirDoc>(readFileSync(file, "utf8"), file).flatMap((q) => {
      const rel = judged.get(q._id);
      return rel ? [{ text: q.text, rel }] : [];
    });
  });
}

/** The questions of both languages, read once. */
const QUESTIONS = { pt: judgedQuestions("pt"), en: judgedQuestions("en") };

/** A search of one draw's site: the ids of a question's first 10 passages. */
type Rank = (question: string) => Promise<string[]>;

/** nDCG@10 of one draw's questions of `lang`, split into own-language and cross-language. */
async function measure(
  rank: Rank,
  ids: readonly string[],
  lang: Lang,
): Promise<{ own: number[]; cross: number[] }> {
  const have = new Set(ids);
  const other = lang === "pt" ? "en" : "pt";
  const out = { own: [] as number[], cross: [] as number[] };
  for (const { text, rel } of QUESTIONS[lang]) {
    const gold = new Map<string, number>();
    let cross = false;
    for (const [entry, grade] of rel) {
      const own = `${lang}:${entry}`;
      cross ||= !have.has(own);
      gold.set(have.has(own) ? own : `${other}:${entry}`, grade);
    }
    out[cross ? "cross" : "own"].push(ndcgAt(await rank(text), gold, 10));
  }
  return out;
}

/**
 * Runs `use` with the Postgres search over one draw's site, indexed into a schema of its own
 * in `url` and dropped after.
 */
async function withPgSite<T>(
  url: string,
  site: ReturnType<typeof siteOf>,
  options: { lexicon: (() => Lexicon) | null; crossWeight: number },
  use: (rank: Rank) => Promise<T>,
): Promise<T> {
  const schema = `bilingual_${Deno.pid}`;
  const sql = connectPg(url, { schema, max: 3, statementTimeoutMs: 120_000 });
  try {
    await createSchema(sql, schema);
    const docs = site.passages.map((p) => ({
      id: p.id,
      contentHash: p.text,
      url: null,
      lang: p.lang as Lang,
      passages: [p],
      ...(site.translations[p.id] ? { translationOf: site.translations[p.id] } : {}),
    }));
    await indexIntoPg(sql, docs, { batchDocs: 500 });
    const pg = createPgSiteSearch({ sql, deadlineMs: 30_000, ...options });
    return await use(async (q) => (await pg.search(q, { k: 10 })).passages.map((p) => p.id));
  } finally {
    await dropSchema(sql, schema).catch(() => {});
    await sql.end({ timeout: 1 });
  }
}

/** nDCG@10 means of one draw, per language and kind, added to `byKey` too. */
async function drawRow(
  rank: Rank,
  ids: readonly string[],
  byKey: Record<string, number[]>,
): Promise<Record<string, number>> {
  const row: Record<string, number> = {};
  for (const lang of LANGS) {
    const { own, cross } = await measure(rank, ids, lang);
    for (const [kind, xs] of [["own", own], ["cross", cross]] as const) {
      row[`${lang}_${kind}`] = round(mean(xs));
      (byKey[`${lang}_${kind}`] ??= []).push(mean(xs));
    }
  }
  return row;
}

const mean = (xs: number[]) => xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
const round = (x: number) => Number(x.toFixed(4));

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "cross-weight": { type: "string" },
      lexicon: { type: "string" },
      postgres: { type: "boolean" },
    },
  });
  const pgUrl = values.postgres ? Deno.env.get("SEARCH_DATABASE_URL") : undefined;
  if (values.postgres && !pgUrl) {
    throw new Error("--postgres needs SEARCH_DATABASE_URL (scripts/pg_cluster.sh starts one).");
  }
  const weights = (values["cross-weight"] ?? String(BILINGUAL_CROSS_WEIGHT)).split(",").map(
    Number,
  );
  if (weights.some((w) => !(w > 0))) throw new Error("--cross-weight takes positive numbers");
  const lexicons = lexiconChoice(values.lexicon, (path) => readFileSync(path, "utf8"));
  const sites = Array.from({ length: DRAWS }, (_, draw) => siteOf(draw));
  const report: Record<string, unknown> = {};
  for (const crossWeight of weights) {
    const byKey: Record<string, number[]> = {};
    const draws: Array<Record<string, number>> = [];
    for (const site of sites) {
      const ids = site.passages.map((p) => p.id);
      if (pgUrl) {
        const options = { lexicon: chosenLexicon(lexicons), crossWeight };
        draws.push(await withPgSite(pgUrl, site, options, (rank) => drawRow(rank, ids, byKey)));
        continue;
      }
      const engine = new SearchEngine(
        buildIndexData(site.passages, { translations: site.translations }),
        {
          ...lexicons,
          crossWeight,
        },
      );
      const rank: Rank = (q) => Promise.resolve(engine.rankLexical(q, 10).ids.map((i) => ids[i]));
      draws.push(await drawRow(rank, ids, byKey));
    }
    const means = Object.fromEntries(Object.entries(byKey).map(([k, xs]) => [k, round(mean(xs))]));
    report[String(crossWeight)] = { mean: means, draws };
  }
  const search = pgUrl ? "postgres" : "embedded";
  console.log(
    JSON.stringify({ search, lexicon: values.lexicon ?? "default", crossWeight: report }),
  );
}
