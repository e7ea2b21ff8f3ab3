/**
 * Vector quantisation for the asset: each passage vector is L2-normalised,
 * stored as int8 with one float scale (max |x| / 127), plus its sign bits
 * (1 bit a dimension) for a Hamming prefilter. 1024-d costs 1 KiB + 128 B + 4 B
 * a passage instead of 4 KiB.
 */

/** Quantised vectors, all views into flat arrays. */
export interface QuantizedVectors {
  dims: number;
  count: number;
  /** count × dims int8 values. */
  values: Int8Array;
  /** One scale per vector: value ≈ int8 × scale. */
  scales: Float32Array;
  /** count × words sign bits (bit set = positive), words = ceil(dims / 32). */
  bits: Uint32Array;
}

/** 32-bit words of sign bits for `dims` dimensions. */
export function signWords(dims: number): number {
  return Math.ceil(dims / 32);
}

/** A unit-length copy of a vector (zero stays zero). */
export function normalize(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}

/** Write the sign bits of `v` into `out` at word offset `at`. */
export function signBits(v: ArrayLike<number>, out: Uint32Array, at = 0): void {
  const words = signWords(v.length);
  out.fill(0, at, at + words);
  for (let i = 0; i < v.length; i++) {
    if (v[i] > 0) out[at + (i >>> 5)] |= 1 << (i & 31);
  }
}

/** Quantise vectors that all have `dims` dimensions. */
export function quantize(vectors: readonly ArrayLike<number>[], dims: number): QuantizedVectors {
  const count = vectors.length;
  const words = signWords(dims);
  const values = new Int8Array(count * dims);
  const scales = new Float32Array(count);
  const bits = new Uint32Array(count * words);
  vectors.forEach((raw, i) => {
    if (raw.length !== dims) {
      throw new RangeError(
        `Vector ${i} has ${raw.length} dimensions, expected ${dims}: use one embedding model for the whole index`,
      );
    }
    const v = normalize(raw);
    let max = 0;
    for (let j = 0; j < dims; j++) max = Math.max(max, Math.abs(v[j]));
    const scale = max > 0 ? max / 127 : 1;
    scales[i] = scale;
    const base = i * dims;
    for (let j = 0; j < dims; j++) values[base + j] = Math.round(v[j] / scale);
    signBits(v, bits, i * words);
  });
  return { dims, count, values, scales, bits };
}

/** The approximate float vector of entry `i` (for tests and diagnostics). */
export function dequantize(q: QuantizedVectors, i: number): Float32Array {
  const out = new Float32Array(q.dims);
  const base = i * q.dims;
  for (let j = 0; j < q.dims; j++) out[j] = q.values[base + j] * q.scales[i];
  return out;
}
