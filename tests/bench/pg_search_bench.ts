/**
 * `deno task bench pg_search`: the site search on Postgres beside the embedded engine, on the
 * synthetic passages of the search bench (80 Zipf-ish words each; clustered vectors).
 *
 * Per size: index time (`indexIntoPg`, the code `deno task index --to postgres` runs, batches of
 * 5,000 passages per transaction), query p50/p95 through the chat's own search path (the
 * `search_site` tool over the search the server builds, owner answers included), and the
 * isolate's JS heap and RSS as the corpus grows. The embedded engine runs at the sizes where an
 * isolate can hold it: index build, query p50/p95 through the same tool, heap.
 *
 * Database: SEARCH_DATABASE_URL_TEST (a schema of its own, dropped after), else a throwaway
 * cluster of scripts/pg_cluster.sh. Sizes: PG_BENCH_TEXT (default "10000,100000,1000000") and
 * PG_BENCH_VECTORS ("10000" 1024-d; "100000" for the figure, about 40 minutes here).
 */
import { percentile } from "@/lib/search/beir.ts";
import type { Embedder } from "@/lib/search/embedder.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import { buildIndexData, type PassageInput } from "@/lib/search/index_data.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { withOwnerAnswers } from "@/lib/search/owner_overlay.ts";
import { connectPg, type Sql } from "@/lib/search/postgres/client.ts";
import { indexIntoPg, type PgDocument } from "@/lib/search/postgres/pg_index.ts";
import { createPgSiteSearch } from "@/lib/search/postgres/pg_search.ts";
import { createSchema, dropSchema } from "@/lib/search/postgres/schema.ts";
import { createOwnerAnswers } from "@/lib/store/owner_answers.ts";
import { createSearchTool } from "@/lib/tools/search_site.ts";
import { synthetic } from "./search_bench_data.ts";

const ms = (x: number) => x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(1)} ms`;
const mb = (x: number) => `${(x / 1024 / 1024).toFixed(1)} MB`;

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * JS heap plus the ArrayBuffers it holds (the embedded index's postings are typed arrays), after
 * collections: buffers are released only once their owners were collected and finalised.
 */
async function heap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 20));
  }
  const m = Deno.memoryUsage();
  return m.heapUsed + m.external;
}

function sizes(name: string, fallback: string): number[] {
  return (Deno.env.get(name) ?? fallback).split(",").map(Number).filter((n) => n > 0);
}

/** Passages in documents of 10, ids and URLs like a site's. */
function documents(texts: string[]): PgDocument[] {
  const docs: PgDocument[] = [];
  for (let i = 0; i < texts.length; i += 10) {
    const id = `d${i / 10}`;
    const passages: PassageInput[] = texts.slice(i, i + 10).map((text, j) => ({
      id: `${id}#s${j}`,
      docId: id,
      title: text.split(" ").slice(0, 4).join(" "),
      url: `/p/${id}#s${j}`,
      lang: "pt",
      text,
    }));
    docs.push({ id, contentHash: String(i), url: `/p/${id}`, lang: "pt", passages });
  }
  return docs;
}

/** The chat's path: the `search_site` tool over the search with the owner's answers. */
async function toolTimes(search: SiteSearch, queries: string[]): Promise<number[]> {
  const kv = await Deno.openKv(":memory:");
  try {
    const tool = createSearchTool(withOwnerAnswers(search, createOwnerAnswers(kv)), {
      origin: "http://site.test",
    });
    // A failed search answers "unavailable" at once: timed, it would read as a fast one.
    const run = async (q: string) => {
      const out = await tool.execute!({ query: q }, { toolCallId: "b", messages: [] } as never);
      if ((out as { mode?: string }).mode === "unavailable") {
        throw new Error(`The search failed on "${q}": the figures would time failures.`);
      }
    };
    for (const q of queries.slice(0, 10)) await run(q); // warm-up
    const times: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await run(q);
      times.push(performance.now() - t);
    }
    return times;
  } finally {
    kv.close();
  }
}

/** An embedder that answers the set's own query vectors (no model in a bench). */
function setEmbedder(
  vectors: Map<string, Float32Array>,
  dims: number,
  first: Float32Array[],
): Embedder {
  let next = 0;
  return {
    model: `bench:syn-${dims}`,
    embed(values) {
      return Promise.resolve(values.map((v) => vectors.get(v) ?? first[next++ % first.length]));
    },
  };
}

async function database(): Promise<{ url: string; close(): Promise<void> }> {
  const given = Deno.env.get("SEARCH_DATABASE_URL_TEST");
  if (given) return { url: given, close: () => Promise.resolve() };
  const { ownCluster } = await import("../support/pg.ts");
  const cluster = await ownCluster();
  return { url: cluster.url, close: () => cluster.remove() };
}

interface Line {
  engine: string;
  n: number;
  indexMs: number;
  p50: number;
  p95: number;
  heap: number;
  rss: number;
}

/** Indexes `n` synthetic passages into the schema; only the queries outlive it. */
async function indexSet(sql: Sql, n: number, dims: number) {
  const set = synthetic(n, dims || 8, 200, 80, 42);
  const docs = documents(set.texts);
  const byText = new Map<string, Float32Array>();
  set.texts.forEach((_text, i) => {
    const p = docs[Math.floor(i / 10)].passages[i % 10];
    byText.set(`${p.title}\n\n${p.text}`, set.vectors[i]);
  });
  const embedder = dims ? setEmbedder(byText, dims, set.vectors) : null;
  const t0 = performance.now();
  await indexIntoPg(sql, docs, { batchDocs: 500, embedder });
  return { indexMs: performance.now() - t0, queries: set.queries };
}

async function pgRun(url: string, n: number, dims: number): Promise<Line> {
  const schema = `bench_${n}_${dims}_${Deno.pid}`;
  const sql: Sql = connectPg(url, { max: 2, schema, statementTimeoutMs: 3_600_000 });
  try {
    await createSchema(sql, schema);
    const { indexMs, queries } = await indexSet(sql, n, dims);
    const vectors = new Map(queries.map((q) => [q.text, q.vector]));
    const embedder = dims ? setEmbedder(vectors, dims, [queries[0].vector]) : null;
    // What the isolate holds for the search: measured from here, the corpus built and gone.
    const h0 = await heap();
    const search = createPgSiteSearch({
      sql: connectPg(url, { schema, max: 3 }),
      embedder,
      deadlineMs: 30_000,
    });
    const times = await toolTimes(search, queries.map((q) => q.text));
    const h1 = await heap();
    await search.close();
    return {
      engine: dims ? `Postgres hybrid ${dims}-d` : "Postgres lexical",
      n,
      indexMs,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      heap: h1 - h0,
      rss: Deno.memoryUsage().rss,
    };
  } finally {
    await dropSchema(sql, schema).catch(() => {});
    await sql.end({ timeout: 1 });
  }
}

/** The embedded engine over the same passages, built in memory as the asset loader builds it. */
function embeddedBuild(n: number) {
  const set = synthetic(n, 8, 200, 80, 42);
  const passages = documents(set.texts).flatMap((d) => d.passages);
  const t0 = performance.now();
  const engine = new SearchEngine(buildIndexData(passages));
  return { engine, indexMs: performance.now() - t0, queries: set.queries.map((q) => q.text) };
}

async function embeddedRun(n: number): Promise<Line> {
  const base = await heap();
  const { engine, indexMs, queries } = embeddedBuild(n);
  const search: SiteSearch = {
    search: (q, o) => engine.search(q, o),
    passage: (id) => engine.passageById(id),
    status: () => ({ status: "unavailable", error: "bench" }),
  };
  const times = await toolTimes(search, queries);
  return {
    engine: "embedded BM25",
    n,
    indexMs,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    heap: (await heap()) - base,
    rss: Deno.memoryUsage().rss,
  };
}

/** The bench's markdown section. */
export async function run(): Promise<string> {
  const db = await database();
  const lines: Line[] = [];
  try {
    for (const n of sizes("PG_BENCH_TEXT", "10000,100000,1000000")) {
      lines.push(await pgRun(db.url, n, 0));
      console.error(JSON.stringify(lines.at(-1)));
    }
    for (const n of sizes("PG_BENCH_VECTORS", "10000")) {
      lines.push(await pgRun(db.url, n, 1024));
      console.error(JSON.stringify(lines.at(-1)));
    }
    // Last: its index stays in this process's memory until the end.
    for (const n of sizes("PG_BENCH_EMBEDDED", "10000,100000")) {
      lines.push(await embeddedRun(n));
      console.error(JSON.stringify(lines.at(-1)));
    }
  } finally {
    await db.close();
  }
  return [
    "### Site search on Postgres beside the embedded engine (synthetic passages, 200 queries)",
    "",
    "| engine | passages | index | query p50 / p95 (search_site tool) | JS heap + buffers held by the search | process RSS |",
    "| --- | ---: | ---: | --- | ---: | ---: |",
    ...lines.map((l) =>
      `| ${l.engine} | ${l.n.toLocaleString("en")} | ${(l.indexMs / 1000).toFixed(1)} s | ${
        ms(l.p50)
      } / ${ms(l.p95)} | ${mb(l.heap)} | ${mb(l.rss)} |`
    ),
  ].join("\n");
}

if (import.meta.main) console.log(await run());
