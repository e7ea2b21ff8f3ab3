/**
 * Deterministic synthetic data for the search bench: passages of Zipf-ish
 * words from a generated vocabulary, and clustered unit vectors (random
 * vectors have no near neighbours, which would make recall meaningless).
 */

/** A seeded PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
export function gauss(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

const SYL = [
  "ca",
  "de",
  "li",
  "mo",
  "ra",
  "te",
  "vi",
  "sa",
  "po",
  "nu",
  "gra",
  "tre",
  "pla",
  "bri",
  "cão",
  "ções",
  "ma",
  "lu",
];

/** Synthetic passages and vectors. */
export interface SyntheticSet {
  texts: string[];
  vectors: Float32Array[];
  queries: Array<{ text: string; vector: Float32Array }>;
}

/** `n` passages of `words` words with `dims`-d clustered vectors, and `q` queries. */
export function synthetic(n: number, dims: number, q: number, words = 80, seed = 42): SyntheticSet {
  const r = rng(seed);
  const vocab = Array.from({ length: 20000 }, () => {
    let w = "";
    for (let s = 2 + Math.floor(r() * 3); s > 0; s--) w += SYL[Math.floor(r() * SYL.length)];
    return w;
  });
  // ~50 passages a cluster, so every query has real near neighbours at every scale.
  const clusters = Math.max(16, Math.round(n / 50));
  const centroids = Array.from(
    { length: clusters },
    () => Float32Array.from({ length: dims }, () => gauss(r)),
  );
  const texts: string[] = [];
  const vectors: Float32Array[] = [];
  const bag: string[] = [];
  for (let i = 0; i < n; i++) {
    bag.length = 0;
    for (let w = 0; w < words; w++) bag.push(vocab[Math.floor(vocab.length * r() ** 3)]);
    texts.push(bag.join(" "));
    const c = centroids[Math.floor(r() * clusters)];
    vectors.push(Float32Array.from(c, (x) => x + 0.8 * gauss(r)));
  }
  const queries = Array.from({ length: q }, () => {
    const i = Math.floor(r() * n);
    const ws = texts[i].split(" ");
    const text = Array.from({ length: 4 }, () => ws[Math.floor(r() * ws.length)]).join(" ");
    return { text, vector: Float32Array.from(vectors[i], (x) => x + 0.5 * gauss(r)) };
  });
  return { texts, vectors, queries };
}

/** A stand-in embedder for FaQuAD: hashed bag of folded words, `dims`-d. Lexical, not semantic. */
export function hashedBow(text: string, dims = 256): Float32Array {
  const out = new Float32Array(dims);
  const words =
    text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    let h = 2166136261;
    for (let i = 0; i < Math.min(w.length, 6); i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    out[(h >>> 0) % dims] += 1;
  }
  return out;
}
