/**
 * Site search: the one module the app imports.
 *
 * @example
 * const search = loadSiteSearch({ embedder: lazyEmbedderFromEnv(Deno.env.toObject()) });
 * const { mode, passages } = await search.search("como funciona o streaming?", { k: 5 });
 */
import { readFileSync } from "node:fs";
import { readAsset } from "./asset.ts";
import { DEFAULT_ASSET_URL } from "./asset_path.ts";
import type { Embedder } from "./embedder.ts";
import { SearchEngine } from "./engine.ts";
import { SearchUnavailableError } from "./errors.ts";
import type { Lexicon } from "./lexicon.ts";
import type {
  IndexStatus,
  SearchOptions,
  SearchResult,
  SiteSearch,
  StoredPassage,
} from "./types.ts";

export type {
  IndexStatus,
  Passage,
  SearchOptions,
  SearchResult,
  SiteSearch,
  StoredPassage,
} from "./types.ts";
export type { Embedder, EmbedKind } from "./embedder.ts";
// Not createEmbedderFromEnv (embedder_providers.ts): it loads the AI SDK, which pages must not.
export { type LazyEmbedder, lazyEmbedderFromEnv } from "./lazy_embedder.ts";
export { EmbedderError, SearchUnavailableError } from "./errors.ts";
export { type Lexicon, type LexiconChoice, lexiconChoiceFromEnv } from "./lexicon.ts";
export { createSlugger, slugify } from "./slug.ts";

export { DEFAULT_ASSET_URL } from "./asset_path.ts";

/** Options of `loadSiteSearch`. */
export interface LoadSiteSearchOptions {
  /** The asset file (default build/search/index.bin). */
  assetPath?: string | URL;
  /** The query embedder; null or absent means lexical search. */
  embedder?: Embedder | null;
  /** Told when a query embedding fails and the search falls back to lexical. */
  onEmbedError?: (error: unknown) => void;
  /** The owner's bilingual lexicon (SEARCH_LEXICON), or null. */
  lexicon?: Lexicon | null;
  /** The lexicon of one-language sites (default the shipped one; null turns it off). */
  defaultLexicon?: (() => Lexicon) | null;
}

/**
 * The site search over the asset, read once, lazily, on the first status() or
 * search(). A missing, truncated or incompatible asset makes status()
 * "unavailable" and search() throw SearchUnavailableError; nothing else breaks.
 */
export function loadSiteSearch(opts: LoadSiteSearchOptions = {}): SiteSearch {
  const path = opts.assetPath ?? DEFAULT_ASSET_URL;
  let engine: SearchEngine | null = null;
  let failure: string | null = null;

  function load(): SearchEngine | null {
    if (engine || failure) return engine;
    const shown = path instanceof URL && path.protocol === "file:"
      ? decodeURIComponent(path.pathname)
      : String(path);
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      failure = (error as { code?: string }).code === "ENOENT"
        ? `Search index "${shown}" does not exist: run \`deno task index\``
        : `Search index "${shown}" cannot be read (${
          (error as Error).message
        }): check its permissions`;
      return null;
    }
    try {
      engine = new SearchEngine(readAsset(bytes), {
        embedder: opts.embedder ?? null,
        lexicon: opts.lexicon ?? null,
        defaultLexicon: opts.defaultLexicon,
        onEmbedError: opts.onEmbedError ??
          ((e) =>
            console.warn(
              `Query embedding failed, searching lexically: ${(e as Error)?.message ?? e}`,
            )),
      });
    } catch (error) {
      failure = `Search index "${shown}" is unusable. ${(error as Error).message}`;
    }
    return engine;
  }

  return {
    status(): IndexStatus {
      const e = load();
      if (!e) return { status: "unavailable", error: failure! };
      const h = e.data.header;
      return {
        status: "ok",
        passages: h.counts.passages,
        documents: h.counts.documents,
        mode: e.mode,
        embeddingModel: e.mode === "hybrid" ? h.embedding?.model ?? null : null,
      };
    },
    search(query: string, options?: SearchOptions): Promise<SearchResult> {
      const e = load();
      if (!e) return Promise.reject(new SearchUnavailableError(failure!));
      return e.search(query, options);
    },
    passage(id: string): StoredPassage | null {
      return load()?.passageById(id) ?? null;
    },
  };
}
