/**
 * The query embedder of EMBEDDING_MODEL, with the AI SDK and its provider packages loaded
 * on the first query (or by the warm-up) instead of at start: they are a good part of a
 * cold start, and a page that never searches should not pay for them (docs/cold-start.md).
 * embedder_providers.ts builds the real one.
 *
 * The import is a plain `import()`: deno.json's `"unstable": ["lazy-dynamic-imports"]` makes
 * Deno load it when it runs, not before main.ts starts (docs/cold-start.md).
 */
import type { Embedder } from "./embedder.ts";

/** An embedder that builds the configured one on first use. */
export interface LazyEmbedder extends Embedder {
  /** Builds the real embedder now; rejects with the `EmbedderError` of a misconfiguration. */
  load(): Promise<Embedder>;
}

/**
 * The embedder EMBEDDING_MODEL names, or null when it is unset (lexical search). Nothing
 * is checked or loaded until `load()` or the first `embed()`; a misconfiguration then
 * rejects each call, and the search falls back to lexical.
 */
export function lazyEmbedderFromEnv(
  env: Record<string, string | undefined>,
  fetch?: typeof globalThis.fetch,
): LazyEmbedder | null {
  const spec = env.EMBEDDING_MODEL?.trim();
  if (!spec) return null;
  let real: Promise<Embedder> | null = null;
  const load = () =>
    real ??= import("./embedder_providers.ts").then(({ createEmbedderFromEnv }) =>
      createEmbedderFromEnv(env, fetch)!
    );
  return {
    model: spec,
    load,
    async embed(values, options) {
      return (await load()).embed(values, options);
    },
  };
}
