/**
 * `deno task index [--corpus corpus] [--out build/search/index.bin]`:
 * validates corpus/manifest.json, then builds the search asset. With
 * EMBEDDING_MODEL set (see lib/search/embedder_providers.ts) passage vectors
 * are computed too. Nothing is written when validation or embedding fails.
 *
 * `deno task index --to postgres`: the same corpus into SEARCH_DATABASE_URL instead
 * (lib/search/postgres/), incrementally: only new and changed documents are written, removed
 * ones deleted, one transaction per batch, so a run cut off midway resumes where it stopped.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { indexCorpus } from "@/lib/search/corpus_index.ts";
import { createEmbedderFromEnv } from "@/lib/search/embedder_providers.ts";
import { OWNER_DOC_PREFIX } from "@/lib/search/owner_overlay.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { uncitableWarnings } from "@/lib/corpus/uncitable_sources.ts";
import config from "@/fresh.config.ts";

const root = new URL("../", import.meta.url);

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", default: fileURLToPath(new URL("corpus", root)) },
      out: { type: "string", default: fileURLToPath(new URL("build/search/index.bin", root)) },
      to: { type: "string", default: "asset" },
    },
  });
  if (values.to !== "asset" && values.to !== "postgres") {
    console.error(`Unknown --to "${values.to}": use postgres, or leave it out for the asset.`);
    Deno.exit(1);
  }
  if (values.to === "postgres") Deno.exit(await indexToPostgres(values.corpus!));
  try {
    const t0 = performance.now();
    const embedder = createEmbedderFromEnv(Deno.env.toObject());
    const { header, bytes, documents } = await indexCorpus({
      corpusDir: values.corpus!,
      outPath: values.out!,
      embedder,
    });
    const c = header.counts;
    console.log(
      `Wrote "${values.out}": ${c.documents} documents, ${c.passages} passages, ${c.terms} terms, ` +
        `${
          header.embedding
            ? `${header.embedding.model} ${header.embedding.dims}-d vectors`
            : "lexical only"
        }, ` +
        `${(bytes / 1024).toFixed(1)} KiB in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    // The documents indexCorpus read: a 100,000-document corpus is not read twice.
    for (const line of uncitableWarnings(documents, config)) console.error(line);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}

/** `--to postgres`: the corpus into SEARCH_DATABASE_URL; the exit code. */
async function indexToPostgres(corpusDir: string): Promise<number> {
  const url = Deno.env.get("SEARCH_DATABASE_URL")?.trim();
  if (!url) {
    console.error("Set SEARCH_DATABASE_URL to the Postgres database to index into.");
    return 1;
  }
  const pg = await import("@/lib/search/postgres/pg_index.ts");
  const { connectPg } = await import("@/lib/search/postgres/client.ts");
  // Indexing statements run long on a large corpus: the search's 2 s limit is not theirs.
  const sql = connectPg(url, { max: 2, statementTimeoutMs: 600_000, connectTimeoutS: 10 });
  try {
    const docs = await loadCorpus(corpusDir);
    for (const line of uncitableWarnings(docs, config)) console.error(line);
    const report = await pg.indexIntoPg(sql, pg.pgDocuments(docs), {
      embedder: createEmbedderFromEnv(Deno.env.toObject()),
      onProgress: (done, total) => console.log(`  ${done}/${total} documents written`),
      // The owner's answers share the tables: the corpus run never deletes them.
      scope: { prefix: OWNER_DOC_PREFIX, inside: false },
    });
    console.log(
      `Postgres index: ${report.added} added, ${report.updated} updated, ${report.deleted} ` +
        `deleted, ${report.unchanged} unchanged (${report.passages} passages written) in ` +
        `${report.ms.toFixed(0)} ms`,
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await sql.end({ timeout: 1 });
  }
}
