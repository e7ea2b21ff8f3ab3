/**
 * Where a streamed markdown answer is code: inside a fenced block (a line opening with three
 * or more backticks or tildes, up to the line that closes it) or an inline code span (a run of
 * backticks up to the next run of the same length, ended by a blank line when never closed).
 * The citation filter leaves `[N]` there alone: `items[0]` and `grid[2][3]` are code, not
 * citations. The scan is resumable across deltas, so a fence opened in one delta still covers
 * the next; a caller holds back a trailing run of backticks or tildes until the run is whole.
 */

/** The scan's state between deltas. */
export interface CodeScan {
  /** The open fence's character and run length, or null outside a fenced block. */
  fence: { ch: string; len: number } | null;
  /** The open inline span's backtick run length; 0 outside one. */
  inline: number;
  /** Whether the next character starts a line, and how many spaces the line has led with. */
  lineStart: boolean;
  indent: number;
  /** Whether the current line has held only blanks so far (a blank line ends an inline span). */
  lineBlank: boolean;
}

/** The state at the start of an answer. */
export function newCodeScan(): CodeScan {
  return { fence: null, inline: 0, lineStart: true, indent: 0, lineBlank: true };
}

/** Length of the run of `text[i]` starting at `i`. */
function runLength(text: string, i: number): number {
  let j = i;
  while (j < text.length && text[j] === text[i]) j++;
  return j - i;
}

/** A fence line's opening or closing run at `i`: the block's state after that line. */
function fenceLine(scan: CodeScan, ch: string, len: number): void {
  if (!scan.fence) scan.fence = { ch, len };
  else if (scan.fence.ch === ch && len >= scan.fence.len) scan.fence = null;
}

/**
 * Advances `scan` over `text` and returns, per character of `text`, 1 where it is code.
 * Fence lines themselves count as code.
 */
export function scanCode(text: string, scan: CodeScan): Uint8Array {
  const code = new Uint8Array(text.length);
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\n") {
      if (scan.lineBlank) scan.inline = 0;
      code[i] = scan.fence ? 1 : 0;
      scan.lineStart = scan.lineBlank = true;
      scan.indent = 0;
      i++;
      continue;
    }
    if (scan.lineStart && c === " " && scan.indent < 3) {
      scan.indent++;
      code[i++] = scan.fence ? 1 : 0;
      continue;
    }
    if (c !== " " && c !== "\t") scan.lineBlank = false;
    if (scan.lineStart && scan.inline === 0 && (c === "`" || c === "~")) {
      const len = runLength(text, i);
      if (len >= 3) {
        fenceLine(scan, c, len);
        // The whole fence line (its info string or closing run) is code.
        const end = text.indexOf("\n", i);
        const stop = end < 0 ? text.length : end;
        code.fill(1, i, stop);
        scan.lineStart = false;
        i = stop;
        continue;
      }
    }
    scan.lineStart = false;
    if (scan.fence) {
      code[i++] = 1;
      continue;
    }
    if (c === "`") {
      const len = runLength(text, i);
      // A run opens a span, closes the span its length opened, or is code inside another.
      if (scan.inline === 0) scan.inline = len;
      else if (scan.inline === len) scan.inline = 0;
      code.fill(1, i, i + len);
      i += len;
      continue;
    }
    code[i++] = scan.inline > 0 ? 1 : 0;
  }
  return code;
}

/**
 * Most characters of a trailing run held back: fences are short, and an unbounded hold would
 * rescan a stream of single backticks at every delta.
 */
const MAX_HELD_RUN = 16;

/** Where a trailing run of backticks or tildes starts (`text.length` when none). */
export function trailingFenceRun(text: string): number {
  let i = text.length;
  const floor = Math.max(0, text.length - MAX_HELD_RUN);
  while (i > floor && (text[i - 1] === "`" || text[i - 1] === "~")) i--;
  return i;
}
