/**
 * The Postgres search as the server starts it: the `postgres` client and the search module are
 * imported on first use (or by the warm-up), not at start, like the embedded engine
 * (lib/search/lazy_search.ts): a page never searches.
 */
import type { Embedder } from "../embedder.ts";
import type { IndexStatus, SiteSearch } from "../types.ts";
import type { PgSiteSearch } from "./pg_search.ts";

const LOADING: IndexStatus = {
  status: "unavailable",
  error: "The search database is connecting: ask again in a moment.",
};

/**
 * The search over SEARCH_DATABASE_URL, loaded when first needed; `lexicon` is SEARCH_LEXICON's
 * value (an owner's file is read on load, so `ready()` at start reports a path it cannot read).
 */
export function lazyPgSearch(
  url: string,
  embedder: Embedder | null,
  lexicon?: string,
): SiteSearch & Pick<PgSiteSearch, "ready" | "syncDocuments" | "storedPassage"> {
  let real: PgSiteSearch | null = null;
  let loading: Promise<PgSiteSearch> | null = null;
  const load = () =>
    loading ??= Promise.all([import("./pg_search.ts"), import("../lexicon.ts")]).then(
      ([{ createPgSiteSearch }, { chosenLexicon, lexiconChoiceFromEnv }]) => {
        // With the owner's lexicon when there is one, else the shipped one (as embedded).
        const choice = lexiconChoiceFromEnv({ SEARCH_LEXICON: lexicon });
        return real = createPgSiteSearch({ url, embedder, lexicon: chosenLexicon(choice) });
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  return {
    ready: async () => await (await load()).ready(),
    syncDocuments: async (docs, prefix) => await (await load()).syncDocuments(docs, prefix),
    storedPassage: async (id) => await (await load()).storedPassage(id),
    async search(query, options) {
      return (await load()).search(query, options);
    },
    passage: (id) => real?.passage(id) ?? null,
    status: () => real?.status() ?? (void load().catch(() => {}), LOADING),
  };
}
