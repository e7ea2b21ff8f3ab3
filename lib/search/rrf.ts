/**
 * Reciprocal Rank Fusion (Cormack et al., 2009): score(d) = Σ 1 / (k + rank),
 * over the rankings that contain d. Ranks only — no score normalisation, so
 * BM25 and cosine scales never need to be reconciled.
 */

/** The constant of the original paper, used by the app. */
export const RRF_K = 60;

/** One fused entry; `ranks[i]` is the 1-based rank in list i, or null. */
export interface Fused {
  id: number;
  score: number;
  ranks: Array<number | null>;
}

/** Fuse rankings (best first) into one ranking, best first; ties by first appearance. */
export function rrf(rankings: readonly ArrayLike<number>[], k = RRF_K): Fused[] {
  const byId = new Map<number, Fused>();
  rankings.forEach((list, li) => {
    for (let r = 0; r < list.length; r++) {
      const id = list[r];
      let e = byId.get(id);
      if (!e) {
        e = { id, score: 0, ranks: rankings.map(() => null) };
        byId.set(id, e);
      }
      if (e.ranks[li] !== null) continue; // a list names a passage once
      e.ranks[li] = r + 1;
      e.score += 1 / (k + r + 1);
    }
  });
  // Map iteration order is first appearance, and sort is stable.
  return [...byId.values()].sort((a, b) => b.score - a.score);
}
