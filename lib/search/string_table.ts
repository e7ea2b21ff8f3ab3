/**
 * Many strings in one UTF-8 buffer plus an offsets array, decoded one at a
 * time on demand: loading the asset never materialises every passage text.
 */

/** A view over encoded strings; `offsets` has `count + 1` entries. */
export interface StringTable {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Encode strings into one table. */
export function encodeStrings(values: readonly string[]): StringTable {
  const parts = values.map((v) => encoder.encode(v));
  const offsets = new Uint32Array(parts.length + 1);
  let total = 0;
  parts.forEach((p, i) => {
    offsets[i] = total;
    total += p.length;
  });
  offsets[parts.length] = total;
  const bytes = new Uint8Array(total);
  parts.forEach((p, i) => bytes.set(p, offsets[i]));
  return { bytes, offsets };
}

/** Decode the i-th string. */
export function stringAt(table: StringTable, i: number): string {
  return decoder.decode(table.bytes.subarray(table.offsets[i], table.offsets[i + 1]));
}

/** Number of strings in the table. */
export function stringCount(table: StringTable): number {
  return table.offsets.length - 1;
}
