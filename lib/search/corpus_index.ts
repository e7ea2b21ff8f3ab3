/**
 * The `deno task index` pipeline: validate the manifest, chunk the documents,
 * embed the passages when an embedder is configured, build, write the asset
 * atomically. Any failure before the final rename leaves the old asset alone.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { toLang } from "./analyzer.ts";
import { writeAsset } from "./asset.ts";
import { chunkMarkdown } from "./chunker.ts";
import type { Embedder } from "./embedder.ts";
import { buildIndexData, type IndexHeader, type PassageInput } from "./index_data.ts";
import { type CorpusDocument, loadCorpus } from "./manifest.ts";

/** The passages of validated documents, with ids `<docId>#<anchor>` and anchored URLs. */
export function corpusPassages(docs: readonly CorpusDocument[]): PassageInput[] {
  const out: PassageInput[] = [];
  for (const doc of docs) {
    const used = new Set<string>();
    for (const c of chunkMarkdown(doc.markdown)) {
      let id = `${doc.id}#${c.anchor}`;
      // A long section split in parts shares its anchor; the ids stay unique.
      for (let part = 2; used.has(id); part++) id = `${doc.id}#${c.anchor}~${part}`;
      used.add(id);
      const base = doc.url ? doc.url.replace(/#.*$/, "") : null;
      out.push({
        id,
        docId: doc.id,
        title: c.path.length ? c.path.join(" › ") : doc.title,
        url: base === null ? null : c.anchor ? `${base}#${c.anchor}` : base,
        lang: toLang(doc.lang),
        text: c.text,
      });
    }
  }
  return out;
}

/** Each document's translation, by id, as the manifest declares them (`translationOf`). */
export function corpusTranslations(docs: readonly CorpusDocument[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const doc of docs) if (doc.translationOf) out[doc.id] = doc.translationOf;
  return out;
}

async function contentHash(docs: readonly CorpusDocument[]): Promise<string> {
  const text = docs.map((d) =>
    `${d.id}\t${d.url ?? ""}\t${d.lang}\t${d.sha256}${
      d.translationOf ? `\t${d.translationOf}` : ""
    }`
  ).join("\n");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Options of `indexCorpus`. */
export interface IndexCorpusOptions {
  corpusDir: string;
  outPath: string;
  embedder?: Embedder | null;
}

/** Build and write the asset; returns its header, its size and the documents it holds. */
export async function indexCorpus(
  options: IndexCorpusOptions,
): Promise<{ header: IndexHeader; bytes: number; documents: readonly CorpusDocument[] }> {
  const docs = await loadCorpus(options.corpusDir); // throws before anything is written
  const passages = corpusPassages(docs);
  const embedder = options.embedder ?? null;
  const vectors = embedder
    ? await embedder.embed(passages.map((p) => `${p.title}\n\n${p.text}`))
    : null;
  const data = buildIndexData(passages, {
    vectors,
    embeddingModel: embedder?.model ?? null,
    contentHash: await contentHash(docs),
    translations: corpusTranslations(docs),
  });
  const bytes = writeAsset(data);
  mkdirSync(dirname(options.outPath), { recursive: true });
  const tmp = `${options.outPath}.tmp-${Deno.pid}`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, options.outPath);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  return { header: data.header, bytes: bytes.length, documents: docs };
}
