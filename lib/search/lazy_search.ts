/**
 * The site search with its engine (the analyzers with their stemmers and stopword lists, BM25,
 * the dense scorer, the asset reader) loaded on first use or by the warm-up, not at start: a
 * page never searches, and a cold start paid for all of it (docs/cold-start.md).
 * lib/search/mod.ts `loadSiteSearch` is the real search; this only defers loading it.
 *
 * The import is a plain `import()`: deno.json's `"unstable": ["lazy-dynamic-imports"]` makes
 * Deno load it when it runs, not before main.ts starts (docs/cold-start.md).
 */
import type { LoadSiteSearchOptions } from "./mod.ts";
import type { IndexStatus, SiteSearch } from "./types.ts";

/** Until the engine has loaded, `status()` says so and `passage()` knows no passage. */
const LOADING: IndexStatus = {
  status: "unavailable",
  error: "The search is loading: ask again in a moment.",
};

/**
 * `loadSiteSearch(options(mod))`, loaded when first needed; `ready()` loads it now, and
 * rejects when `options` throws (e.g. a lexicon file that cannot be read).
 */
export function lazySiteSearch(
  options: (search: typeof import("./mod.ts")) => LoadSiteSearchOptions,
): SiteSearch & { ready(): Promise<void> } {
  let real: SiteSearch | null = null;
  let loading: Promise<void> | null = null;
  const ready = () =>
    loading ??= import("./mod.ts").then(
      (mod) => {
        real = mod.loadSiteSearch(options(mod));
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  return {
    ready,
    async search(query, searchOptions) {
      await ready();
      return real!.search(query, searchOptions);
    },
    passage: (id) => real?.passage(id) ?? null,
    status: () => real?.status() ?? LOADING,
  };
}
