/**
 * The asset's path on its own, so that a page can name it without loading the search engine
 * (lib/search/mod.ts imports the analyzers).
 */

/**
 * Where `deno task index` writes the asset. Outside static/ on purpose: the index holds the
 * text of internal documents, which must never be served.
 */
export const DEFAULT_ASSET_URL: URL = new URL("../../build/search/index.bin", import.meta.url);
