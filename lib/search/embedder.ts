/**
 * The swap point for dense retrieval. AI SDK implementations live in
 * embedder_providers.ts; tests use fakes.
 */

/** What a text is embedded for: some models (Gemini) embed queries and documents differently. */
export type EmbedKind = "query" | "passage";

/** Turns texts into vectors. */
export interface Embedder {
  /** "provider:model", stored in the asset; another model at query time means lexical search. */
  readonly model: string;
  /** Embed texts, one vector per text, in order. */
  embed(
    values: string[],
    options?: { signal?: AbortSignal; kind?: EmbedKind },
  ): Promise<Float32Array[]>;
}
