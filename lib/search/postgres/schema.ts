/**
 * The search's tables in Postgres, created or brought up to date by `migrate`, which is safe to
 * run again (every step is "if not exists" or compares before it changes anything).
 *
 *   site_documents  one row per corpus document, with the hash of what was indexed from it
 *                   and the document it is a declared translation of (`translation_of`,
 *                   the manifest's `translationOf`)
 *   site_passages   one row per passage; `tsv` is generated from title (weight A) and text (B),
 *                   joined words split (`splitJoinedWords`),
 *                   with the language's text search configuration, and from their operators
 *                   (`code`: lib/search/analyzer.ts `codeTerms`, which Postgres's parser
 *                   drops), GIN-indexed; `embedding`
 *                   (pgvector, HNSW) only when an embedding model is configured
 *   site_terms      per lexeme, how many passages hold it: the IDF of the ranking and the
 *                   choice of the rarest terms, kept up to date in the indexing transactions
 *   site_meta       passage and document counts, the documents' languages, how many declare a
 *                   translation, the embedding model and its dimensions
 */
import type { Sql, Tx } from "./client.ts";

/** Bumped when a change needs the passages rebuilt (the indexer then reindexes all). */
export const SCHEMA_VERSION = 3;

/**
 * The two text search configurations: Postgres's own Portuguese and English stemmers and
 * stopwords, after unaccent, so "não"/"nao" and "função"/"funcao" meet as in the embedded
 * index. A configuration is one immutable name, which a generated column may call (the
 * `unaccent()` function is not immutable and could not be called there directly).
 *
 * The stemmer reads its stop list after unaccent, and the list is accented: "são", "não", "é"
 * came through as the lexemes "sao", "nao", "e". A stopword dictionary (`site_pt_stop`) that
 * reads the word as written goes first (schema version 2; version 1 passages are reindexed).
 */
const CONFIGS = [["site_pt", "portuguese"], ["site_en", "english"]] as const;

/** Creates the schema `name` (a bare identifier) when it is missing. */
export async function createSchema(sql: Sql, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`"${name}" is not a plain schema name.`);
  await sql.unsafe(`create schema if not exists ${name}`);
}

/** Drops the schema `name` and everything in it (tests, evals). */
export async function dropSchema(sql: Sql, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`"${name}" is not a plain schema name.`);
  await sql.unsafe(`drop schema if exists ${name} cascade`);
}

/** Creates or completes the schema; `dims` adds the vector column and its HNSW index. */
export async function migrate(sql: Sql, options: { dims?: number | null } = {}): Promise<void> {
  await sql.begin(async (tx) => {
    // One migration at a time, also across processes (two indexers started together).
    await tx`select pg_advisory_xact_lock(hashtext(current_schema() || ':site_migrate'))`;
    // In public, never in a schema of a test that drops it.
    await createExtension(tx, "unaccent");
    for (const [name, base] of CONFIGS) {
      const [found] = await tx`
        select 1 as one from pg_ts_config
        where cfgname = ${name} and cfgnamespace = current_schema()::regnamespace`;
      if (!found) await tx.unsafe(`create text search configuration ${name} (copy = ${base})`);
      const [stop] = await tx`
        select 1 as one from pg_ts_dict
        where dictname = ${`${name}_stop`} and dictnamespace = current_schema()::regnamespace`;
      if (found && stop) continue;
      if (!stop) {
        // Stopwords out, any other word on to the next dictionaries (accept = false).
        await tx.unsafe(
          `create text search dictionary ${name}_stop ` +
            `(template = simple, stopwords = ${base}, accept = false)`,
        );
      }
      await tx.unsafe(
        `alter text search configuration ${name} alter mapping for hword, hword_part, word ` +
          `with ${name}_stop, unaccent, ${base}_stem`,
      );
    }
    await tx.unsafe(TABLES);
    await regenerateTsv(tx);
    if (options.dims) await addVectors(tx, options.dims);
  });
}

/**
 * `text` (an SQL expression) with the joints of Postgres's path, host and e-mail tokens made
 * spaces: its parser reads "if/while/def/class", "os.read" and "x.dll" as one lexeme each,
 * where the embedded analyzer (lib/search/analyzer.ts `tokenize`) reads their words, which a
 * paraphrased question asks with ("…no fim do if e do def"). Index and query both go through it.
 */
export function splitJoinedWords(text: string): string {
  return `regexp_replace(${text}, '(?<=[[:alnum:]])[./@\\\\](?=[[:alnum:]])', ' ', 'g')`;
}

/** The generated `tsv`: the words of title and text, then their operators (`pgCodeVector`). */
const TSV = `
    setweight(to_tsvector(case when lang = 'en' then 'site_en'::regconfig
      else 'site_pt'::regconfig end, ${splitJoinedWords("title")}), 'A') ||
    setweight(to_tsvector(case when lang = 'en' then 'site_en'::regconfig
      else 'site_pt'::regconfig end, ${splitJoinedWords("body")}), 'B') || code`;

/**
 * A table of an older schema: `tsv` generated anew (Postgres 15 cannot change a generated
 * column's expression: it is dropped with its index and added again), and the term counts
 * recounted from it. Version 2 gets the `code` column, which the indexer's rewrite of every
 * passage fills; version 3's `tsv` did not split joined words (`splitJoinedWords`).
 */
async function regenerateTsv(tx: Tx): Promise<void> {
  const [tsv] = await tx`
    select pg_get_expr(d.adbin, d.adrelid) as expr from pg_attrdef d
    join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
    where d.adrelid = 'site_passages'::regclass and a.attname = 'tsv'`;
  const expr = tsv?.expr ?? "";
  if (/\bcode\b/.test(expr) && expr.includes("regexp_replace")) return;
  await tx.unsafe(`
    alter table site_passages add column if not exists code tsvector not null default '';
    alter table site_passages drop column tsv;
    alter table site_passages add column tsv tsvector generated always as (${TSV}) stored;
    create index site_passages_tsv on site_passages using gin (tsv);
    truncate site_terms;
    insert into site_terms (lexeme, ndoc)
      select lexeme, count(*)::int from site_passages, unnest(tsvector_to_array(tsv)) as lexeme
      group by lexeme;`);
}

const TABLES = `
create table if not exists site_meta (
  key text primary key,
  value jsonb not null
);
create table if not exists site_documents (
  id text primary key,
  hash text not null,
  url text,
  lang text not null,
  indexed_at timestamptz not null default now(),
  translation_of text
);
-- Added after version 3 without a version of its own: the indexer rewrites the documents that
-- declare a translation (their hash holds it), the others have none to store.
alter table site_documents add column if not exists translation_of text;
create index if not exists site_documents_translation on site_documents (translation_of)
  where translation_of is not null;
create table if not exists site_passages (
  id text primary key,
  doc_id text not null references site_documents (id) on delete cascade,
  seq integer not null,
  title text not null,
  url text,
  lang text not null,
  body text not null,
  code tsvector not null default '',
  tsv tsvector generated always as (${TSV}) stored
);
create index if not exists site_passages_doc on site_passages (doc_id);
create index if not exists site_passages_tsv on site_passages using gin (tsv);
create table if not exists site_terms (
  lexeme text primary key,
  ndoc integer not null
);
insert into site_meta (key, value) values ('schema', '${SCHEMA_VERSION}') on conflict do nothing;
`;

/**
 * `create extension if not exists` under a lock of the whole database: an extension is the
 * database's, not a schema's, and two sites' first migrations in one database raced on it
 * ("duplicate key value violates unique constraint pg_extension_name_index").
 */
export async function createExtension(tx: Tx, name: "unaccent" | "vector"): Promise<void> {
  await tx`select pg_advisory_xact_lock(hashtext('site_extensions'))`;
  await tx.unsafe(`create extension if not exists ${name} schema public`);
}

/** The vector column and its index, for `dims` dimensions (cosine distance). */
async function addVectors(tx: Tx, dims: number): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > 16000) {
    throw new Error(`Embedding dimensions ${dims} are not a valid pgvector size (1–16000).`);
  }
  await createExtension(tx, "vector");
  const [col] = await tx`
    select format_type(atttypid, atttypmod) as type from pg_attribute
    where attrelid = 'site_passages'::regclass and attname = 'embedding' and not attisdropped`;
  if (col && col.type !== `vector(${dims})`) {
    // Another model's vectors cannot be compared with this one's: they are recomputed.
    await tx.unsafe(`alter table site_passages drop column embedding`);
    await tx`truncate site_passages, site_documents, site_terms`;
  }
  if (!col || col.type !== `vector(${dims})`) {
    await tx.unsafe(`alter table site_passages add column embedding vector(${dims})`);
  }
  await createVectorIndex(tx);
}

/** The HNSW index of the vectors (cosine), when missing. */
export async function createVectorIndex(tx: Tx): Promise<void> {
  await tx.unsafe(
    `create index if not exists site_passages_embedding on site_passages ` +
      `using hnsw (embedding vector_cosine_ops)`,
  );
}
