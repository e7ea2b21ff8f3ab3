/**
 * Linear-time scans for visitor text. Backtracking regexes such as `/[x]+$/`
 * retry from every position of a long run that is not at the end, which is
 * quadratic: a few hundred KB of spaces froze the server for most of a minute.
 * These helpers walk the string once, by UTF-16 code unit.
 */

/** Whether a code unit is whitespace as regex `\s` and `String.prototype.trim` see it. */
export function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f ||
    code === 0x3000 || code === 0xfeff;
}

/** A test for code units: one of `chars`, or whitespace when `space` is set. */
export function charClass(chars: string, space = false): (code: number) => boolean {
  const set = new Set([...chars].map((c) => c.charCodeAt(0)));
  return space ? (code) => set.has(code) || isSpace(code) : (code) => set.has(code);
}

/** The index just past the run of `test` code units that starts at `from`. */
export function runEnd(text: string, test: (code: number) => boolean, from = 0): number {
  let i = from;
  while (i < text.length && test(text.charCodeAt(i))) i++;
  return i;
}

/** The index where the run of `test` code units ending at `end` starts, not below `floor`. */
export function runStart(
  text: string,
  test: (code: number) => boolean,
  end = text.length,
  floor = 0,
): number {
  let i = end;
  while (i > floor && test(text.charCodeAt(i - 1))) i--;
  return i;
}

/** `text` without its trailing run of `test` code units (as `replace(/[x]+$/, "")`). */
export function trimEndRun(text: string, test: (code: number) => boolean): string {
  return text.slice(0, runStart(text, test));
}

/** At most `max` code units of `text` from its start, never splitting a surrogate pair. */
export function boundedPrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
