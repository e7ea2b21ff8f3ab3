/**
 * The site search on Postgres (SEARCH_DATABASE_URL): the same `SiteSearch` contract as the
 * embedded index, for sites whose index outgrows an isolate's memory or changes without a
 * redeploy. Lexical ranking in SQL (ranking_sql.ts); with an embedding model, pgvector's HNSW
 * nearest neighbours beside it, fused by RRF as the embedded engine does.
 *
 * Every query has a deadline; a database that is down, slow or lost midway makes `search()`
 * throw SearchUnavailableError (the chat then says search is unavailable) and `status()`
 * report it, and the next search tries again: nothing needs a restart.
 */
import { Lru } from "@/lib/lru.ts";
import type { Embedder } from "../embedder.ts";
import { SearchUnavailableError } from "../errors.ts";
import { rrf } from "../rrf.ts";
import { askedPart } from "../asked_part.ts";
import type {
  IndexStatus,
  Passage,
  SearchOptions,
  SearchResult,
  SiteSearch,
  StoredPassage,
} from "../types.ts";
import { connectPg, pgFailure, type Sql, withDeadline } from "./client.ts";
import { indexIntoPg, type PgDocument } from "./pg_index.ts";
import { DEFAULT_TUNING, type PgRankTuning } from "./ranking_sql.ts";
import { type Lang, LANGS } from "../analyzer.ts";
import { type Lexicon, shippedLexicon } from "../lexicon.ts";
import { BILINGUAL_CROSS_WEIGHT } from "../engine.ts";
import {
  bilingualRanking,
  type LexicalRanking,
  type LexicalRun,
  oneLanguageRanking,
  type Row,
  type SiteShape,
} from "./lexical_ranking.ts";

/** Options of `createPgSiteSearch`. */
export interface PgSiteSearchOptions {
  /** The database (SEARCH_DATABASE_URL), or an open pool (tests, benches). */
  url?: string;
  sql?: Sql;
  embedder?: Embedder | null;
  /** Deadline of one search in the database, ms (default 1,500). */
  deadlineMs?: number;
  /** Candidates per list before fusion (default 50, as the embedded engine). */
  candidates?: number;
  tuning?: Partial<PgRankTuning>;
  /** The FAQ entry lift [share, same kind], as the embedded engine's; [0, 0] turns it off. */
  entryQuestion?: readonly [number, number];
  onEmbedError?: (error: unknown) => void;
  /**
   * The lexicon questions are translated with (default: the shipped one; null turns
   * translation off): on a one-language site, a question in the other language; on a
   * bilingual one, every question, for the pages with no translation in its language.
   */
  lexicon?: (() => Lexicon) | null;
  /** Weight of a bilingual site's translated side (default BILINGUAL_CROSS_WEIGHT). */
  crossWeight?: number;
}

/** A search over Postgres, with `close()` for the pool it opened. */
export type PgSiteSearch = SiteSearch & {
  ready(): Promise<void>;
  /**
   * Makes the documents whose id starts with `prefix` equal `docs` (the owner's answers):
   * written when new or changed, deleted when gone; no other document is read or touched.
   */
  syncDocuments(docs: PgDocument[], prefix: string): Promise<void>;
  /** The passage with this id as the database holds it now, or null when it holds none. */
  storedPassage(id: string): Promise<StoredPassage | null>;
  close(): Promise<void>;
};

async function syncDocuments(
  sql: Sql,
  docs: PgDocument[],
  prefix: string,
  embedder: Embedder | null,
): Promise<void> {
  // The tables exist once the corpus was indexed; without them the search fails anyway.
  await indexIntoPg(sql, docs, { scope: { prefix, inside: true }, migrate: false, embedder });
}

/** How long a status read stays fresh, ms: /api/health polls must not each query the database. */
const STATUS_TTL_MS = 5_000;

/** The Postgres search; connects on first use. */
export function createPgSiteSearch(options: PgSiteSearchOptions): PgSiteSearch {
  const sql = options.sql ?? connectPg(options.url!, {});
  const deadline = options.deadlineMs ?? 1_500;
  const tuning = { ...DEFAULT_TUNING, ...options.tuning }, candidates = options.candidates ?? 50;
  const seen = new Lru<string, StoredPassage>(2_000);
  let status: IndexStatus = { status: "unavailable", error: "The search database is connecting." };
  let checkedAt = 0, checking: Promise<void> | null = null, dims: number | null = null;
  const site: SiteShape = {
    langs: [],
    twins: false,
    lexicon: options.lexicon === undefined ? shippedLexicon : options.lexicon,
    crossWeight: options.crossWeight ?? BILINGUAL_CROSS_WEIGHT,
  };

  const refresh = () =>
    checking ??= readStatus(sql, deadline, options.embedder ?? null).then((s) => {
      status = s.status;
      dims = s.dims;
      site.langs = s.langs;
      site.twins = s.twins;
    }).finally(() => {
      checkedAt = Date.now();
      checking = null;
    });

  async function search(message: string, opts: SearchOptions = {}): Promise<SearchResult> {
    // As the embedded search: a question that stands on its own is searched alone.
    const query = askedPart(message);
    const k = Math.max(0, Math.floor(opts.k ?? 5));
    // The first search learns whether the database holds vectors of this embedder's model.
    if (!checkedAt) await refresh();
    if (!query.trim() || k === 0) return { mode: dims ? "hybrid" : "lexical", passages: [] };
    const depth = Math.max(k, candidates);
    // The translation's statement fails as the ranking's would: both under the catch below.
    const run: LexicalRun = {
      depth,
      tuning,
      deadline,
      entryQuestion: options.entryQuestion,
      signal: opts.signal,
    };
    const lexicalRun = site.langs.length > 1
      ? bilingualRanking(sql, query, site, run)
      : oneLanguageRanking(sql, query, site, run);
    const denseRun = dims && options.embedder
      ? denseRows(sql, options.embedder, dims, query, depth, deadline, options, opts.signal)
      : Promise.resolve(null);
    let lexical: LexicalRanking;
    let dense: Row[] | null;
    try {
      [lexical, dense] = await Promise.all([lexicalRun, denseRun]);
    } catch (error) {
      lexicalRun.catch(() => {});
      denseRun.catch(() => {});
      if (error instanceof SearchUnavailableError) {
        status = { status: "unavailable", error: error.message };
        checkedAt = Date.now();
      }
      throw error;
    }
    if (status.status !== "ok" && Date.now() - checkedAt > 250) void refresh().catch(() => {});
    const { rows, ...translated } = lexical;
    return { ...assemble(rows, dense, k, seen), ...translated };
  }

  return {
    search,
    // Synchronous by contract: the passages this isolate has seen in its searches (which is
    // where the references of a chat's internal passages come from).
    passage: (id) => seen.get(id) ?? null,
    status() {
      if (Date.now() - checkedAt > STATUS_TTL_MS) void refresh().catch(() => {});
      return status;
    },
    ready: () => refresh().catch(() => {}),
    syncDocuments: (docs, prefix) => syncDocuments(sql, docs, prefix, options.embedder ?? null),
    async storedPassage(id) {
      const [row] = await withDeadline<Row[]>(
        sql`select id, title, url, lang, body, 0::float8 as score from site_passages
          where id = ${id}` as unknown as Promise<Row[]>,
        deadline,
      );
      if (!row) return null;
      const stored = { id: row.id, title: row.title, url: row.url, lang: row.lang, text: row.body };
      seen.set(row.id, stored);
      return stored;
    },
    close: () => options.sql ? Promise.resolve() : sql.end({ timeout: 1 }),
  };
}

/** The query's nearest passages by cosine; null when its embedding fails or does not fit. */
async function denseRows(
  sql: Sql,
  embedder: Embedder,
  dims: number,
  query: string,
  depth: number,
  deadline: number,
  options: Pick<PgSiteSearchOptions, "onEmbedError">,
  signal?: AbortSignal,
): Promise<Row[] | null> {
  let vector: Float32Array;
  try {
    [vector] = await embedder.embed([query], { signal, kind: "query" });
  } catch (error) {
    (options.onEmbedError ?? ((e) => console.warn("Query embedding failed:", e)))(error);
    return null;
  }
  if (vector.length !== dims) return null;
  return await withDeadline<Row[]>(
    sql`
      select id, title, url, lang, body, 0::float8 as score from site_passages
      where embedding is not null
      order by embedding <=> ${`[${Array.from(vector).join(",")}]`}::vector
      limit ${depth}` as unknown as Promise<Row[]>,
    deadline,
    signal,
  );
}

/** The result: RRF over both lists (or the lexical list alone), public passages numbered. */
function assemble(
  lexical: Row[],
  dense: Row[] | null,
  k: number,
  seen: Lru<string, StoredPassage>,
): SearchResult {
  const rows = new Map<string, Row>();
  for (const r of [...lexical, ...(dense ?? [])]) if (!rows.has(r.id)) rows.set(r.id, r);
  const ids = [...rows.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const lists = [lexical.map((r) => index.get(r.id)!)];
  if (dense) lists.push(dense.map((r) => index.get(r.id)!));
  const fused = dense
    ? rrf(lists).slice(0, k)
    : lists[0].slice(0, k).map((i, r) => ({ id: i, score: lexical[r].score, ranks: [r + 1] }));
  let n = 0;
  const passages = fused.map((f): Passage => {
    const row = rows.get(ids[f.id])!;
    const stored: StoredPassage = {
      id: row.id,
      title: row.title,
      url: row.url,
      lang: row.lang,
      text: row.body,
    };
    seen.set(row.id, stored);
    const lexicalRow = lexical.find((r) => r.id === row.id);
    return {
      ...(row.url ? { n: ++n } : {}),
      ...stored,
      score: Number(f.score),
      ...(lexicalRow?.match == null ? {} : { match: Number(lexicalRow.match) }),
      ...(lexicalRow?.heading == null ? {} : { heading: Number(lexicalRow.heading) }),
      ranks: { bm25: f.ranks[0] ?? null, dense: dense ? f.ranks[1] ?? null : null },
    };
  });
  return { mode: dense ? "hybrid" : "lexical", passages };
}

/** The counts and the embedding settings, or the failure, read once. */
async function readStatus(
  sql: Sql,
  deadline: number,
  embedder: Embedder | null,
): Promise<{ status: IndexStatus; dims: number | null; langs: Lang[]; twins: boolean }> {
  try {
    const rows = await withDeadline<Array<{ key: string; value: unknown }>>(
      sql`select key, value from site_meta` as unknown as Promise<
        Array<{ key: string; value: unknown }>
      >,
      deadline,
    );
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    const embedding = meta.get("embedding") as
      | { embeddingModel: string | null; dims: number | null }
      | undefined;
    // Another model's vectors are not comparable with this one's query vectors.
    const dims = embedder && embedding?.dims && embedding.embeddingModel === embedder.model
      ? embedding.dims
      : null;
    const stored = (meta.get("langs") ?? []) as string[];
    return {
      dims,
      langs: LANGS.filter((l) => stored.includes(l)),
      // Absent until the indexer has run with the `translation_of` column.
      twins: Number(meta.get("translations") ?? 0) > 0,
      status: {
        status: "ok",
        passages: Number(meta.get("passages") ?? 0),
        documents: Number(meta.get("documents") ?? 0),
        mode: dims ? "hybrid" : "lexical",
        embeddingModel: dims ? embedder!.model : null,
      },
    };
  } catch (error) {
    const message = error instanceof SearchUnavailableError ? error.message : pgFailure(error);
    const missing = /site_meta.*does not exist/.test(message);
    return {
      dims: null,
      langs: [],
      twins: false,
      status: {
        status: "unavailable",
        error: missing
          ? "The search database has no index yet: run `deno task index --to postgres`."
          : message,
      },
    };
  }
}
