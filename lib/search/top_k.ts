/**
 * Top-k selection with a bounded min-heap: O(n log k), no sort of the whole
 * candidate list and no allocation beyond the two result arrays.
 */

/** Selected candidates, best first. */
export interface TopK {
  ids: Uint32Array;
  scores: Float32Array;
}

/**
 * The `k` best of `count` candidates `ids[i]` scored `scores[ids[i]]` (higher
 * is better). Ties keep the lower id first so results are deterministic.
 */
export function topK(ids: Uint32Array, count: number, scores: Float32Array, k: number): TopK {
  const n = Math.min(k, count);
  const heapIds = new Uint32Array(n);
  const heapScores = new Float32Array(n);
  let size = 0;
  // "worse" = lower score, or equal score and higher id.
  const worse = (sa: number, ia: number, sb: number, ib: number) =>
    sa < sb || (sa === sb && ia > ib);
  for (let c = 0; c < count; c++) {
    const id = ids[c];
    const s = scores[id];
    if (size < n) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(s, id, heapScores[p], heapIds[p])) break;
        heapIds[i] = heapIds[p];
        heapScores[i] = heapScores[p];
        i = p;
      }
      heapIds[i] = id;
      heapScores[i] = s;
    } else if (n > 0 && worse(heapScores[0], heapIds[0], s, id)) {
      siftDown(heapIds, heapScores, size, id, s, worse);
    }
  }
  // Pop the heap from the worst up, filling the result from the back.
  const outIds = new Uint32Array(size);
  const outScores = new Float32Array(size);
  for (let end = size - 1; end >= 0; end--) {
    outIds[end] = heapIds[0];
    outScores[end] = heapScores[0];
    const lastId = heapIds[end];
    const lastScore = heapScores[end];
    if (end > 0) siftDown(heapIds, heapScores, end, lastId, lastScore, worse);
  }
  return { ids: outIds, scores: outScores };
}

function siftDown(
  heapIds: Uint32Array,
  heapScores: Float32Array,
  size: number,
  id: number,
  s: number,
  worse: (sa: number, ia: number, sb: number, ib: number) => boolean,
): void {
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    let m = l;
    if (r < size && worse(heapScores[r], heapIds[r], heapScores[l], heapIds[l])) m = r;
    if (!worse(heapScores[m], heapIds[m], s, id)) break;
    heapIds[i] = heapIds[m];
    heapScores[i] = heapScores[m];
    i = m;
  }
  heapIds[i] = id;
  heapScores[i] = s;
}
