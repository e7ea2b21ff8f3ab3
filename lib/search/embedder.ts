/**
 * The swap point for dense retrieval. Implementations live in
 * embedder_providers.ts (AI SDK) and tests (fakes).
 */

/** Turns texts into vectors. */
export interface Embedder {
  /** "provider:model", stored in the asset; a different model at query time means lexical search. */
  readonly model: string;
  /** Embed texts, one vector per text, in order. */
  embed(values: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}
