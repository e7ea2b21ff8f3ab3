/**
 * `deno task index [--corpus corpus] [--out build/search/index.bin]`:
 * validates corpus/manifest.json, then builds the search asset. With
 * EMBEDDING_MODEL set (see lib/search/embedder_providers.ts) passage vectors
 * are computed too. Nothing is written when validation or embedding fails.
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { indexCorpus } from "@/lib/search/corpus_index.ts";
import { createEmbedderFromEnv } from "@/lib/search/embedder_providers.ts";

const root = new URL("../", import.meta.url);

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      corpus: { type: "string", default: fileURLToPath(new URL("corpus", root)) },
      out: { type: "string", default: fileURLToPath(new URL("build/search/index.bin", root)) },
    },
  });
  try {
    const t0 = performance.now();
    const embedder = createEmbedderFromEnv(Deno.env.toObject());
    const { header, bytes } = await indexCorpus({
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
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
