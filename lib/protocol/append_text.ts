/**
 * Appends a streamed delta to the text it belongs to, keeping the text compact.
 *
 * V8 represents `a + b` as a node pointing at both halves, so an answer built from 300
 * deltas is a tree of 300 nodes and 300 small strings, about six times the size of its
 * characters. The tree lives as long as the turn (seconds), so the young-generation
 * collector copies it and then promotes it, for every answer streaming. Every `flattenStep`
 * characters the text is copied into one flat string, and the nodes before it die young.
 */
export function appendText(text: string, delta: string): string {
  const next = text + delta;
  const step = flattenStep(next.length);
  return Math.floor(next.length / step) === Math.floor(text.length / step) ? next : flat(next);
}

/** 256 characters, or an eighth of a long text, so the copies stay linear in its length. */
function flattenStep(length: number): number {
  return Math.max(256, 2 ** (31 - Math.clz32(length)) / 8);
}

/**
 * A flat copy of `text`. Slicing a tree flattens it first (the slice points into the flat
 * string); `+ " "` makes sure the slice is not the whole string, which V8 would return as is.
 */
function flat(text: string): string {
  return (text + " ").slice(0, -1);
}
