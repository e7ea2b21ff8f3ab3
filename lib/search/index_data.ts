/**
 * The in-memory form of the index — exactly what the asset stores — and the
 * builder that makes it from passages. The eval command and the index script
 * both go through `buildIndexData`, so they measure the engine the app runs.
 */
import { analyze, ANALYZER_ID, type Lang } from "./analyzer.ts";
import { buildPostings, type Postings } from "./bm25.ts";
import { quantize, type QuantizedVectors } from "./quantize.ts";
import { encodeStrings, type StringTable } from "./string_table.ts";

/** Asset format version; bump on any layout change. */
export const FORMAT_VERSION = 1;

/** Strings stored per passage in the string table, in this order. */
export const FIELDS_PER_PASSAGE = 4; // id, title, url ("" = none), text

/** Weight of title terms against body terms (a BM25F-style field boost). */
export const DEFAULT_TITLE_WEIGHT = 2;

/** The asset header, stored as JSON after the magic. */
export interface IndexHeader {
  format: number;
  analyzer: string;
  /** The embedding model ("provider:id") and dimensions, or null for a lexical index. */
  embedding: { model: string; dims: number } | null;
  counts: { passages: number; documents: number; terms: number; postings: number };
  /** Hex SHA-256 of the corpus content the index was built from. */
  contentHash: string;
  titleWeight: number;
  /**
   * Documents that translate each other, by document id (each pair once, either way round):
   * the cross-language search drops a translation when its twin in the question's language
   * is ranked. Absent in indexes built before it, or from a corpus without translations.
   */
  translations?: Record<string, string>;
}

/** Everything the engine needs, as typed arrays. */
export interface IndexData {
  header: IndexHeader;
  postings: Postings;
  strings: StringTable;
  vectors: QuantizedVectors | null;
}

/** One passage to index. */
export interface PassageInput {
  /** `<docId>#<anchor>`. */
  id: string;
  /** The source document id (counts documents). */
  docId: string;
  /** Heading path. */
  title: string;
  url: string | null;
  lang: Lang;
  /** Plain text. */
  text: string;
}

/** Options of `buildIndexData`. */
export interface BuildOptions {
  /** One vector per passage, in order, when an embedder is configured. */
  vectors?: readonly ArrayLike<number>[] | null;
  /** The embedder's model id, required with `vectors`. */
  embeddingModel?: string | null;
  titleWeight?: number;
  contentHash?: string;
  /** Document id → the id of its translation (see IndexHeader.translations). */
  translations?: Record<string, string>;
}

/** Build the index from passages. */
export function buildIndexData(
  passages: readonly PassageInput[],
  options: BuildOptions = {},
): IndexData {
  const titleWeight = options.titleWeight ?? DEFAULT_TITLE_WEIGHT;
  const postings = buildPostings(passages.map((p) => ({
    lang: p.lang,
    fields: [[analyze(p.title, p.lang), titleWeight], [analyze(p.text, p.lang), 1]],
  })));
  const strings = encodeStrings(passages.flatMap((p) => [p.id, p.title, p.url ?? "", p.text]));
  let vectors: QuantizedVectors | null = null;
  const raw = options.vectors;
  if (raw && raw.length) {
    if (raw.length !== passages.length) {
      throw new RangeError(
        `Got ${raw.length} vectors for ${passages.length} passages: embed every passage`,
      );
    }
    if (!options.embeddingModel) {
      throw new RangeError("Vectors need an embeddingModel id: pass the embedder's model");
    }
    vectors = quantize(raw, raw[0].length);
  }
  return {
    header: {
      format: FORMAT_VERSION,
      analyzer: ANALYZER_ID,
      embedding: vectors ? { model: options.embeddingModel!, dims: vectors.dims } : null,
      counts: {
        passages: passages.length,
        documents: new Set(passages.map((p) => p.docId)).size,
        terms: postings.terms.length,
        postings: postings.postDocs.length,
      },
      contentHash: options.contentHash ?? "",
      titleWeight,
      ...(options.translations && Object.keys(options.translations).length
        ? { translations: options.translations }
        : {}),
    },
    postings,
    strings,
    vectors,
  };
}
