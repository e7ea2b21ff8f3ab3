/**
 * Indexing into Postgres: documents are compared by the hash of what was indexed from them;
 * new and changed ones are written, removed ones deleted, unchanged ones left alone. Each batch
 * of documents is one transaction (its passages, their term counts, its documents' hashes), so
 * a run cut off midway keeps every batch it finished and the next run does only the rest.
 */
import { toLang } from "../analyzer.ts";
import { corpusPassages } from "../corpus_index.ts";
import type { Embedder } from "../embedder.ts";
import type { CorpusDocument } from "../manifest.ts";
import type { PassageInput } from "../index_data.ts";
import { pgArray, type Sql, type Tx } from "./client.ts";
import { createVectorIndex, migrate, SCHEMA_VERSION } from "./schema.ts";
import { pgCodeTerms } from "./ranking_sql.ts";

/** One document to index, with its passages (ids `<docId>#<anchor>`, in order). */
export interface PgDocument {
  id: string;
  /** What the document's content is (e.g. the manifest's sha256): a change reindexes it. */
  contentHash: string;
  url: string | null;
  lang: "pt" | "en";
  passages: PassageInput[];
  /** The id of the document this one translates (the manifest's `translationOf`). */
  translationOf?: string;
}

/** What an indexing run did. */
export interface PgIndexReport {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  passages: number;
  ms: number;
}

/** Options of `indexIntoPg`. */
export interface PgIndexOptions {
  embedder?: Embedder | null;
  /** Documents per transaction (default 200). */
  batchDocs?: number;
  /** Told after each committed batch (documents done, documents to do). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Whether documents absent from `docs` are deleted (default true: `docs` is the whole
   * corpus). False adds and updates only.
   */
  deleteMissing?: boolean;
  /**
   * Which stored documents `docs` stands for (default: all): those whose id starts with
   * `prefix` (`inside`) or does not. Only they are compared and deleted when missing: the
   * corpus and the owner's answers share the tables, each the owner of its own.
   */
  scope?: PgScope;
  /** Whether to run the migration first (default true). */
  migrate?: boolean;
}

/** A part of the stored documents, by id prefix. */
export interface PgScope {
  prefix: string;
  inside: boolean;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Most operators of one passage kept in its `code` vector. */
const MAX_CODE_TERMS = 256;

/**
 * A passage's operators as a tsvector literal, the title's at weight A and the text's at B, as
 * the words' ("'//':1A '!=':2B"): Postgres's parser drops them, and `ts_rank` gives a lexeme
 * without a position the least weight.
 */
export function pgCodeVector(title: string, text: string): string {
  const quote = (t: string) => `'${t.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  const terms = [
    ...pgCodeTerms(title).map((t) => [t, "A"]),
    ...pgCodeTerms(text).map((t) => [t, "B"]),
  ].slice(0, MAX_CODE_TERMS);
  return terms.map(([t, w], i) => `${quote(t)}:${i + 1}${w}`).join(" ");
}

/**
 * The stored hash: the content, where it shows, the schema, the embedding model, and the
 * declared translation when there is one (so a database indexed before `translation_of`
 * existed rewrites just the documents that have one).
 */
function documentHash(doc: PgDocument, model: string | null): Promise<string> {
  return sha256Hex(
    [
      SCHEMA_VERSION,
      doc.contentHash,
      doc.url ?? "",
      doc.lang,
      model ?? "",
      doc.passages.length,
      ...(doc.translationOf ? [doc.translationOf] : []),
    ].join("\t"),
  );
}

/** Brings the database in line with `docs` (the whole corpus unless `deleteMissing` is false). */
export async function indexIntoPg(
  sql: Sql,
  docs: readonly PgDocument[],
  options: PgIndexOptions = {},
): Promise<PgIndexReport> {
  const t0 = performance.now();
  const embedder = options.embedder ?? null;
  const dims = embedder ? (await embedder.embed(["dimension probe"]))[0].length : null;
  if (options.migrate !== false) {
    await migrate(sql, { dims });
    await setMeta(sql, { embeddingModel: embedder?.model ?? null, dims });
  }
  const stored = await storedHashes(sql, options.scope);
  const todo: Array<{ doc: PgDocument; hash: string }> = [];
  let unchanged = 0;
  let updated = 0;
  for (const doc of docs) {
    const hash = await documentHash(doc, embedder?.model ?? null);
    const was = stored.get(doc.id);
    if (was === hash) unchanged++;
    else todo.push({ doc, hash });
    if (was !== undefined && was !== hash) updated++;
  }
  const keep = new Set(docs.map((d) => d.id));
  const gone = options.deleteMissing === false
    ? []
    : [...stored.keys()].filter((id) => !keep.has(id));
  const batch = Math.max(1, options.batchDocs ?? 200);
  for (let i = 0; i < gone.length; i += batch) {
    await writeBatch(sql, [], gone.slice(i, i + batch), null);
  }
  let passages = 0;
  const firstLoad = dims !== null && todo.length > 0 && await isEmpty(sql);
  await bulkVectorIndex(sql, firstLoad, async () => {
    for (let i = 0; i < todo.length; i += batch) {
      const slice = todo.slice(i, i + batch);
      const vectors = embedder ? await embedBatch(embedder, slice.map((t) => t.doc)) : null;
      passages += await writeBatch(sql, slice, [], vectors);
      options.onProgress?.(Math.min(i + batch, todo.length), todo.length);
    }
  });
  await storeLangs(sql);
  // Only a migrated table has the column; the owner's answers (no migration) declare none.
  if (options.migrate !== false) await storeTranslations(sql);
  return {
    added: todo.length - updated,
    updated,
    deleted: gone.length,
    unchanged,
    passages,
    ms: performance.now() - t0,
  };
}

/**
 * The languages of the stored documents, kept in site_meta: the search reads them with its
 * status, which health checks poll, so they are listed once per indexing run rather than on
 * every read. Listed at the end of every run, a run cut off earlier leaves them right too.
 */
async function storeLangs(sql: Sql): Promise<void> {
  await sql`
    insert into site_meta (key, value)
    values ('langs', to_jsonb(array(select distinct lang from site_documents order by lang)))
    on conflict (key) do update set value = excluded.value`;
}

/**
 * How many documents declare a translation that is stored too, kept in site_meta beside the
 * languages: the search leaves their pages out of a bilingual site's translated side only when
 * there are some, and never asks a database indexed before the column existed for it.
 */
async function storeTranslations(sql: Sql): Promise<void> {
  await sql`
    insert into site_meta (key, value)
    values ('translations', to_jsonb((select count(*) from site_documents d
      join site_documents t on t.id = d.translation_of)))
    on conflict (key) do update set value = excluded.value`;
}

async function isEmpty(sql: Sql): Promise<boolean> {
  const [row] = await sql`select not exists (select 1 from site_passages) as empty`;
  return row.empty as boolean;
}

/**
 * pgvector builds an HNSW index several times faster over rows already loaded than row by row:
 * a first load into an empty table drops the index and builds it once at the end. A run cut
 * off midway leaves it missing, and the next run's migration creates it before writing.
 */
async function bulkVectorIndex(sql: Sql, firstLoad: boolean, run: () => Promise<void>) {
  if (!firstLoad) return await run();
  await sql`drop index if exists site_passages_embedding`;
  await run();
  await sql.begin(async (tx) => {
    // The build outlasts any statement limit meant for queries; its memory bounds its speed.
    await tx`set local statement_timeout = 0`;
    await tx`set local maintenance_work_mem = '512MB'`;
    await createVectorIndex(tx);
  });
}

/** The stored documents' hashes, of `scope` only when given. */
async function storedHashes(sql: Sql, scope?: PgScope): Promise<Map<string, string>> {
  const rows = scope
    ? await sql`
      select id, hash from site_documents
      where (left(id, ${scope.prefix.length}) = ${scope.prefix}) = ${scope.inside}`
    : await sql`select id, hash from site_documents`;
  return new Map(rows.map((r) => [r.id as string, r.hash as string]));
}

async function embedBatch(embedder: Embedder, docs: PgDocument[]): Promise<string[]> {
  const texts = docs.flatMap((d) => d.passages.map((p) => `${p.title}\n\n${p.text}`));
  const vectors = texts.length ? await embedder.embed(texts, { kind: "passage" }) : [];
  return vectors.map((v) => `[${Array.from(v).join(",")}]`);
}

async function setMeta(sql: Sql, meta: { embeddingModel: string | null; dims: number | null }) {
  await sql`
    insert into site_meta (key, value)
    values ('embedding', ${sql.json(meta)})
    on conflict (key) do update set value = excluded.value`;
}

/**
 * One transaction: removes the passages of the written and the deleted documents (and their
 * term counts), inserts the written documents with their hashes and passages, and counts their
 * terms. All or nothing: a document's hash is never stored without its passages.
 */
async function writeBatch(
  sql: Sql,
  write: Array<{ doc: PgDocument; hash: string }>,
  remove: string[],
  vectors: string[] | null,
): Promise<number> {
  const ids = [...write.map((w) => w.doc.id), ...remove];
  const rows = write.flatMap(({ doc }) =>
    doc.passages.map((p, seq) => ({
      id: p.id,
      doc_id: doc.id,
      seq,
      title: p.title,
      url: p.url,
      lang: p.lang,
      body: p.text,
      code: pgCodeVector(p.title, p.text),
    }))
  );
  // The column is written only by batches that declare a translation: the owner's answers
  // (none) are synced by a server that does not migrate, maybe before the indexer added it.
  const translated = write.some(({ doc }) => doc.translationOf);
  const docs = write.map(({ doc, hash }) => ({
    id: doc.id,
    hash,
    url: doc.url,
    lang: doc.lang,
    ...(translated ? { translation_of: doc.translationOf ?? null } : {}),
  }));
  const idList = pgArray(ids);
  await sql.begin(async (tx) => {
    // Two indexers at once would count the same terms twice: one writer at a time.
    await tx`select pg_advisory_xact_lock(hashtext(current_schema() || ':site_index'))`;
    const [before] = await tx`
      select (select count(*) from site_passages where doc_id = any(${idList}::text[]))::int as passages,
             (select count(*) from site_documents where id = any(${idList}::text[]))::int as documents`;
    await tx`
      with gone as (
        select lexeme, count(*)::int as n
        from site_passages p, unnest(tsvector_to_array(p.tsv)) as lexeme
        where p.doc_id = any(${idList}::text[]) group by lexeme)
      update site_terms t set ndoc = t.ndoc - gone.n from gone where t.lexeme = gone.lexeme`;
    await tx`delete from site_terms where ndoc <= 0`;
    await tx`delete from site_documents where id = any(${idList}::text[])`;
    if (docs.length) await tx`insert into site_documents ${tx(docs)}`;
    for (let i = 0; i < rows.length; i += 1000) {
      const part = rows.slice(i, i + 1000);
      const withVectors = vectors
        ? part.map((r, j) => ({ ...r, embedding: vectors[i + j] }))
        : part;
      await tx`insert into site_passages ${tx(withVectors)}`;
    }
    await tx`
      insert into site_terms (lexeme, ndoc)
      select lexeme, count(*)::int
      from site_passages p, unnest(tsvector_to_array(p.tsv)) as lexeme
      where p.doc_id = any(${idList}::text[]) group by lexeme
      on conflict (lexeme) do update set ndoc = site_terms.ndoc + excluded.ndoc`;
    await bumpCount(tx, "passages", rows.length - before.passages);
    await bumpCount(tx, "documents", docs.length - before.documents);
  });
  return rows.length;
}

async function bumpCount(tx: Tx, key: string, delta: number): Promise<void> {
  await tx`
    insert into site_meta (key, value) values (${key}, to_jsonb(${delta}::bigint))
    on conflict (key) do update
      set value = to_jsonb((site_meta.value #>> '{}')::bigint + ${delta}::bigint)`;
}

/** The corpus's documents as `indexIntoPg` takes them: chunked as the embedded index chunks. */
export function pgDocuments(
  docs: readonly CorpusDocument[],
): PgDocument[] {
  const passages = corpusPassages(docs);
  const byDoc = new Map<string, PassageInput[]>();
  for (const p of passages) {
    const list = byDoc.get(p.docId) ?? [];
    list.push(p);
    byDoc.set(p.docId, list);
  }
  return docs.map((d) => ({
    id: d.id,
    contentHash: d.sha256,
    url: d.url,
    lang: toLang(d.lang),
    passages: byDoc.get(d.id) ?? [],
    ...(d.translationOf ? { translationOf: d.translationOf } : {}),
  }));
}
