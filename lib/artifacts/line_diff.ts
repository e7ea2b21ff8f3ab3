/**
 * Line diff between two versions of an artifact, with the `diff` package, shaped
 * for the panel: unified rows, or rows of two columns side by side. Client-only in
 * use (it loads with the Diff tab), but plain functions, tested in Deno.
 */
import { diffLines } from "diff";

/** One line of a unified diff. */
export interface DiffLine {
  kind: "same" | "add" | "del";
  /** Line number in the older version (null for an added line). */
  oldNo: number | null;
  /** Line number in the newer version (null for a removed line). */
  newNo: number | null;
  text: string;
}

/** One side of a side-by-side row. */
export interface DiffCell {
  kind: "same" | "add" | "del";
  no: number;
  text: string;
}

/** A row side by side: the older line on the left, the newer on the right (either may be blank). */
export interface SplitRow {
  left: DiffCell | null;
  right: DiffCell | null;
}

/** Longest the diff may compute before it gives up and shows a whole replacement, in ms. */
const DIFF_TIMEOUT_MS = 1500;

/** The unified line diff from `older` to `newer`. */
export function lineDiff(older: string, newer: string): DiffLine[] {
  const changes = diffLines(older, newer, { ignoreNewlineAtEof: true, timeout: DIFF_TIMEOUT_MS }) ??
    [
      { value: older, removed: true, added: false, count: 0 },
      { value: newer, removed: false, added: true, count: 0 },
    ];
  const out: DiffLine[] = [];
  let oldNo = 1;
  let newNo = 1;
  for (const change of changes) {
    for (const text of splitLines(change.value)) {
      if (change.added) out.push({ kind: "add", oldNo: null, newNo: newNo++, text });
      else if (change.removed) out.push({ kind: "del", oldNo: oldNo++, newNo: null, text });
      else out.push({ kind: "same", oldNo: oldNo++, newNo: newNo++, text });
    }
  }
  return out;
}

/** Lines of a change's text (its final newline ends the last line, it does not start another). */
function splitLines(value: string): string[] {
  if (value === "") return [];
  const lines = value.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The same diff as rows side by side: each run of removals is paired with the additions after it. */
export function sideBySide(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.kind === "same") {
      rows.push({
        left: { kind: "same", no: line.oldNo!, text: line.text },
        right: { kind: "same", no: line.newNo!, text: line.text },
      });
      i++;
      continue;
    }
    const dels: DiffLine[] = [];
    const adds: DiffLine[] = [];
    while (i < lines.length && lines[i].kind === "del") dels.push(lines[i++]);
    while (i < lines.length && lines[i].kind === "add") adds.push(lines[i++]);
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const d = dels[k];
      const a = adds[k];
      rows.push({
        left: d ? { kind: "del", no: d.oldNo!, text: d.text } : null,
        right: a ? { kind: "add", no: a.newNo!, text: a.text } : null,
      });
    }
  }
  return rows;
}

/** Lines added and removed. */
export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === "add") added++;
    else if (l.kind === "del") removed++;
  }
  return { added, removed };
}
