/**
 * Site-search bench: our engine against Orama (full-text and hybrid) and
 * MiniSearch on FaQuAD, then synthetic scale runs with 1024-d vectors.
 *
 *   deno run -A tests/bench/search_bench.ts
 *
 * Heap figures are `heapUsed` deltas (asset buffers are reported by size);
 * they are reliable only when run with `--v8-flags=--expose-gc`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create, insertMultiple, save, search as oramaSearchTyped } from "@orama/orama";
import { language as ptLanguage, stemmer as ptStemmer } from "@orama/stemmers/portuguese";
import MiniSearch from "minisearch";
import { readAsset, writeAsset } from "@/lib/search/asset.ts";
import { type BeirDoc, ndcgAt, parseJsonl, parseQrels, percentile } from "@/lib/search/beir.ts";
import { SearchEngine } from "@/lib/search/engine.ts";
import { buildIndexData, type PassageInput } from "@/lib/search/index_data.ts";
import { loadSiteSearch } from "@/lib/search/mod.ts";
import { DenseScorer } from "@/lib/search/dense.ts";
import { normalize, quantize } from "@/lib/search/quantize.ts";
import { hashedBow, synthetic } from "./search_bench_data.ts";

/** FaQuAD in BEIR form, kept in the repository with its attribution (tests/fixtures/faquad/SOURCES.md). */
const FAQUAD = fileURLToPath(new URL("../fixtures/faquad/", import.meta.url));

// Orama's generic parameter types recurse too deeply for the checker on a
// schema chosen at run time; the bench only needs hits' ids.
const oramaSearch = oramaSearchTyped as unknown as (
  db: unknown,
  params: Record<string, unknown>,
) => Promise<{ hits: Array<{ id: string }> }>;
const gc = (globalThis as { gc?: () => void }).gc;

function heap(): number {
  gc?.();
  // JS heap only: ArrayBuffer backing stores are freed lazily, which makes
  // `external` deltas meaningless; the asset buffer is reported as its size.
  return Deno.memoryUsage().heapUsed;
}

const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const ms = (x: number) => x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(1)} ms`;

async function timeQueries<T>(items: T[], run: (item: T) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (const it of items) {
    const t = performance.now();
    await run(it);
    times.push(performance.now() - t);
  }
  return times;
}

interface Row {
  name: string;
  buildMs: number;
  p50: number;
  p99: number;
  heap: number;
  size: number;
  ndcg: number;
}

async function faquadSection(): Promise<string> {
  let docs: BeirDoc[];
  try {
    docs = parseJsonl<BeirDoc>(readFileSync(join(FAQUAD, "corpus.jsonl"), "utf8"), "corpus.jsonl");
  } catch {
    return `### FaQuAD\n\nSkipped: "${FAQUAD}" is not present.\n`;
  }
  const qrels = parseQrels(readFileSync(join(FAQUAD, "qrels/test.tsv"), "utf8"));
  const queries = parseJsonl<{ _id: string; text: string }>(
    readFileSync(join(FAQUAD, "queries.jsonl"), "utf8"),
    "queries.jsonl",
  ).filter((q) => qrels.has(q._id));
  const qvecs = queries.map((q) => hashedBow(q.text));
  const dvecs = docs.map((d) => hashedBow(`${d.title} ${d.text}`));
  const ndcg = (ranked: string[][]) =>
    ranked.reduce((s, ids, i) => s + ndcgAt(ids, qrels.get(queries[i]._id)!, 10), 0) /
    queries.length;
  const rows: Row[] = [];

  for (const hybrid of [false, true]) {
    const h0 = heap();
    const t0 = performance.now();
    const passages: PassageInput[] = docs.map((d) => ({
      id: d._id,
      docId: d._id,
      title: d.title ?? "",
      url: null,
      lang: "pt",
      text: d.text,
    }));
    const data = buildIndexData(
      passages,
      hybrid ? { vectors: dvecs, embeddingModel: "bench:bow" } : {},
    );
    const bytes = writeAsset(data);
    const buildMs = performance.now() - t0;
    const engine = new SearchEngine(readAsset(bytes), {
      embedder: hybrid ? { model: "bench:bow", embed: () => Promise.resolve([]) } : null,
    });
    const heapUsed = heap() - h0;
    const ranked: string[][] = [];
    const times = await timeQueries(queries.map((q, i) => [q, i] as const), ([q, i]) => {
      const r = engine.rankWithVector(q.text, hybrid ? qvecs[i] : null, 10);
      ranked.push(r.ids.map((id) => docs[id]._id));
    });
    rows.push({
      name: hybrid ? "site search, hybrid" : "site search, BM25",
      buildMs,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      heap: heapUsed,
      size: bytes.length,
      ndcg: ndcg(ranked),
    });
  }

  for (const hybrid of [false, true]) {
    const h0 = heap();
    const t0 = performance.now();
    const db = create({
      schema: hybrid
        ? { title: "string", text: "string", embedding: "vector[256]" } as const
        : { title: "string", text: "string" } as const,
      components: { tokenizer: { language: ptLanguage, stemming: true, stemmer: ptStemmer } },
    });
    await insertMultiple(
      db,
      docs.map((d, i) => ({
        id: d._id,
        title: d.title ?? "",
        text: d.text,
        ...(hybrid ? { embedding: [...dvecs[i]] } : {}),
      })),
    );
    const buildMs = performance.now() - t0;
    const heapUsed = heap() - h0;
    const ranked: string[][] = [];
    const times = await timeQueries(queries.map((q, i) => [q, i] as const), async ([q, i]) => {
      const res = await oramaSearch(
        db,
        hybrid
          ? {
            mode: "hybrid",
            term: q.text,
            vector: { value: [...qvecs[i]], property: "embedding" },
            similarity: 0,
            limit: 10,
          }
          : { term: q.text, limit: 10 },
      );
      ranked.push(res.hits.map((h) => h.id));
    });
    rows.push({
      name: hybrid ? "Orama 3.1, hybrid" : "Orama 3.1, full-text",
      buildMs,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      heap: heapUsed,
      size: JSON.stringify(save(db)).length,
      ndcg: ndcg(ranked),
    });
  }

  {
    const fold = (t: string) => t.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
    const h0 = heap();
    const t0 = performance.now();
    const mini = new MiniSearch({ idField: "_id", fields: ["title", "text"], processTerm: fold });
    mini.addAll(docs);
    const buildMs = performance.now() - t0;
    const heapUsed = heap() - h0;
    const ranked: string[][] = [];
    const times = await timeQueries(queries, (q) => {
      ranked.push(mini.search(q.text).slice(0, 10).map((h) => h.id as string));
    });
    rows.push({
      name: "MiniSearch 7.2 (folded)",
      buildMs,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      heap: heapUsed,
      size: JSON.stringify(mini).length,
      ndcg: ndcg(ranked),
    });
  }

  const lines = rows.map((r) =>
    `| ${r.name} | ${ms(r.buildMs)} | ${ms(r.p50)} | ${ms(r.p99)} | ${mb(r.heap)} | ${
      (r.size / 1024).toFixed(0)
    } KiB | ${r.ndcg.toFixed(4)} |`
  );
  return [
    `### FaQuAD (${docs.length} docs, ${queries.length} queries, qrels/test.tsv)`,
    "",
    "Hybrid rows use the same stand-in vectors for both engines (hashed bag of words, 256-d):",
    "no embedding provider is reachable here, so they measure the fusion machinery, not semantics.",
    "Orama uses its Portuguese Snowball stemmer; MiniSearch lower-cases and folds accents.",
    "",
    "| engine | build | query p50 | query p99 | heap after load | serialised | nDCG@10 |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...lines,
    "",
  ].join("\n");
}

async function oramaHybridTimes(set: ReturnType<typeof synthetic>, dims: number) {
  const t0 = performance.now();
  const db = create({ schema: { text: "string", embedding: `vector[${dims}]` } as const });
  await insertMultiple(
    db,
    set.texts.map((text, i) => ({ text, embedding: [...set.vectors[i]] })),
    1000,
  );
  const buildMs = performance.now() - t0;
  const times = await timeQueries(set.queries, (q) =>
    oramaSearch(db, {
      mode: "hybrid",
      term: q.text,
      vector: { value: [...q.vector], property: "embedding" },
      similarity: 0,
      limit: 10,
    }));
  return { buildMs, p50: percentile(times, 50), p99: percentile(times, 99) };
}

function exactTop10(vectors: Float32Array[], query: Float32Array): number[] {
  const q = normalize(query);
  const scored = vectors.map((v, i) => {
    const u = normalize(v);
    let d = 0;
    for (let j = 0; j < u.length; j++) d += u[j] * q[j];
    return [d, i] as const;
  });
  return scored.sort((a, b) => b[0] - a[0]).slice(0, 10).map((s) => s[1]);
}

async function scaleSection(): Promise<string> {
  const dims = 1024;
  const rows: string[] = [];
  const notes: string[] = [];
  const tmp = Deno.makeTempDirSync();
  for (const n of [1_000, 5_000, 10_000, 100_000]) {
    const set = synthetic(n, dims, 200);
    const passages: PassageInput[] = set.texts.map((text, i) => ({
      id: `p${i}`,
      docId: `d${i >> 3}`,
      title: `Doc ${i >> 3}`,
      url: `/p/${i}`,
      lang: "pt",
      text,
    }));
    const t0 = performance.now();
    const bytes = writeAsset(
      buildIndexData(passages, { vectors: set.vectors, embeddingModel: "bench:syn" }),
    );
    const buildMs = performance.now() - t0;
    const file = join(tmp, `index-${n}.bin`);
    writeFileSync(file, bytes);
    // Cold load through the public API: file read, header checks, views, engine.
    const loads: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const s = loadSiteSearch({ assetPath: file });
      s.status();
      loads.push(performance.now() - t);
    }
    const h0 = heap();
    const engine = new SearchEngine(readAsset(readFileSync(file)), {
      embedder: { model: "bench:syn", embed: () => Promise.resolve([]) },
    });
    const mem = heap() - h0;
    for (const q of set.queries.slice(0, 20)) engine.rankWithVector(q.text, q.vector, 10); // warm-up
    const times = await timeQueries(
      set.queries,
      (q) => engine.rankWithVector(q.text, q.vector, 10),
    );
    let orama = "—";
    if (n <= 10_000) {
      const o = await oramaHybridTimes(set, dims);
      orama = `${ms(o.p50)} / ${ms(o.p99)} (${
        (o.p50 / percentile(times, 50)).toFixed(0)
      }× slower at p50)`;
    }
    let recall = "—";
    if (n <= 10_000) {
      const dense = new DenseScorer(quantize(set.vectors, dims));
      let hit = 0;
      const qs = set.queries.slice(0, 100);
      for (const q of qs) {
        const exact = new Set(exactTop10(set.vectors, q.vector));
        for (const id of dense.search(q.vector, 10).ids) if (exact.has(id)) hit++;
      }
      recall = (hit / (qs.length * 10)).toFixed(3);
    }
    rows.push(
      `| ${n.toLocaleString("en")} | ${ms(buildMs)} | ${mb(bytes.length)} | ${
        ms(percentile(loads, 50))
      } | ${mb(mem)} | ${ms(percentile(times, 50))} / ${
        ms(percentile(times, 99))
      } | ${orama} | ${recall} |`,
    );
  }
  notes.push(
    "Orama at 100k passages × 1024-d is skipped: its insert alone takes minutes and GBs of heap here.",
  );
  Deno.removeSync(tmp, { recursive: true });
  return [
    `### Scale: synthetic passages (80 words) with ${dims}-d clustered vectors, 200 queries`,
    "",
    "Hybrid = BM25 + dense (Hamming prefilter on sign bits, int8 rescoring of a 200 shortlist) + RRF, one core,",
    "query vector given (the embedding call itself is not timed). Load = `loadSiteSearch(...).status()` on a file.",
    "Recall = quantised dense top-10 vs exact float32 cosine top-10 (100 queries).",
    "",
    "| passages | build | asset (one buffer) | load | JS heap after load | hybrid p50 / p99 | Orama hybrid p50 / p99 | dense recall@10 |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    ...notes.map((n) => `- ${n}`),
    "",
  ].join("\n");
}

/** Run the whole search bench and return a markdown section. */
export async function runSearchBench(): Promise<string> {
  const t0 = performance.now();
  const parts = ["## Site search", "", await faquadSection(), await scaleSection()];
  parts.push(
    `_Search bench ran in ${
      ((performance.now() - t0) / 1000).toFixed(0)
    } s on ${navigator.hardwareConcurrency} cores; heap ${
      gc ? "after gc" : "without forced gc (approximate)"
    }._`,
    "",
  );
  return parts.join("\n");
}

if (import.meta.main) console.log(await runSearchBench());
