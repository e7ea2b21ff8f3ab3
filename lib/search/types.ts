/**
 * The contract between the search engine and its users (the `search_site` tool,
 * the offline model, the health route). Everything else in lib/search/ is private.
 */
import type { SearchTranslation } from "@/lib/protocol/ui_message.ts";

/** One retrieved passage. Only passages with a public URL carry a citation number `n`. */
export interface Passage {
  /** Citation number, 1-based, present only when `url` is not null. */
  n?: number;
  /** Stable passage id: `<docId>#<section-anchor>`. */
  id: string;
  /** Heading path, e.g. "Como funciona › Streaming". */
  title: string;
  /** Public URL with the section anchor, or null for passages that must never be cited. */
  url: string | null;
  /** Language of the source document ("pt" | "en"). */
  lang: string;
  /** The passage text (markdown stripped to plain text). */
  text: string;
  /** Fused score (RRF in hybrid mode, BM25 in lexical mode). */
  score: number;
  /**
   * How much of the query the passage and the site hold (0–1): the mean of the shares of the
   * query's IDF weight in the passage and in the whole index. Comparable across queries,
   * unlike `score`, so it can tell "found" from "nothing on the site".
   */
  match?: number;
  /**
   * The share of the query's IDF weight its own heading (the title's last part) holds (0–1):
   * how much of the question the section is about by its name, not merely mentions.
   */
  heading?: number;
  /** 1-based rank in each list; null when the passage was absent from it. */
  ranks: { bm25: number | null; dense: number | null };
}

/** A passage as stored in the index, looked up by its id (no score, no number). */
export interface StoredPassage {
  id: string;
  title: string;
  url: string | null;
  lang: string;
  text: string;
}

/** What a search returns. `mode` says honestly whether dense retrieval took part. */
export interface SearchResult {
  mode: "hybrid" | "lexical";
  passages: Passage[];
  /**
   * The language the search read the question in, when it translated it into the site's
   * (a Portuguese question over an English-only site, lib/search/lexicon.ts).
   */
  translatedFrom?: "pt" | "en";
  /** The question's translation, when the search also looked in the other language. */
  translation?: SearchTranslation;
}

/** Options of one search. */
export interface SearchOptions {
  /** How many passages to return (default 5). */
  k?: number;
  /** Aborts an in-flight query embedding. */
  signal?: AbortSignal;
}

/** Health of the loaded index, for `/api/health`. */
export type IndexStatus =
  | {
    status: "ok";
    passages: number;
    documents: number;
    mode: "hybrid" | "lexical";
    embeddingModel: string | null;
  }
  | { status: "unavailable"; error: string };

/** The site search as the rest of the app sees it. */
export interface SiteSearch {
  search(query: string, options?: SearchOptions): Promise<SearchResult>;
  /**
   * The stored passage with this id (`<docId>#<anchor>`), or null when the index has no
   * such passage or is unavailable. Resolves the references that stand in for internal
   * passages in what leaves the server.
   */
  passage(id: string): StoredPassage | null;
  status(): IndexStatus;
  /** Resolves once `status()` and `passage()` can answer (a search that loads lazily). */
  ready?(): Promise<void>;
  /**
   * The passage with this id as the index holds it now, read from where the index lives (a
   * search whose `passage()` knows only what it has returned: Postgres).
   */
  storedPassage?(id: string): Promise<StoredPassage | null>;
}

/**
 * The passage with this id as `search`'s index holds it now, or null: read where the index
 * lives, or once a lazily loaded index is in (lib/search/lazy_search.ts).
 */
export async function currentPassage(
  search: SiteSearch,
  id: string,
): Promise<StoredPassage | null> {
  if (search.storedPassage) return await search.storedPassage(id);
  await search.ready?.();
  return search.passage(id);
}
