/**
 * The import report: one line per page that did something other than stay
 * the same (unchanged pages are only counted), then a summary line.
 */
import type { ReportEntry, ReportKind } from "./types.ts";

/** Count of each kind of line. */
export type ReportCounts = Record<ReportKind, number>;

/** The counts of `entries`. */
export function countReport(entries: readonly ReportEntry[]): ReportCounts {
  const counts: ReportCounts = {
    added: 0,
    changed: 0,
    removed: 0,
    unchanged: 0,
    skipped: 0,
    kept: 0,
    note: 0,
    error: 0,
  };
  for (const e of entries) counts[e.kind]++;
  return counts;
}

const ORDER: ReportKind[] = ["note", "error", "skipped", "kept", "removed", "changed", "added"];

/**
 * The report as text: lines grouped by kind (notes and errors first, then
 * skipped, kept, removed, changed, added), then
 * "N added, N changed, N removed, N skipped, N unchanged[, N kept][, nothing written]".
 */
export function formatReport(entries: readonly ReportEntry[], written: boolean): string {
  const lines: string[] = [];
  for (const kind of ORDER) {
    for (const e of entries.filter((x) => x.kind === kind)) {
      lines.push(`${kind.padEnd(8)} ${e.target}${e.detail ? `: ${e.detail}` : ""}`);
    }
  }
  lines.push(summaryLine(countReport(entries), written));
  return lines.join("\n");
}

/** "3 added, 1 changed, 0 removed, 4 skipped, 20 unchanged". */
export function summaryLine(c: ReportCounts, written: boolean): string {
  const parts = [
    `${c.added} added`,
    `${c.changed} changed`,
    `${c.removed} removed`,
    `${c.skipped} skipped`,
    `${c.unchanged} unchanged`,
  ];
  if (c.kept) parts.push(`${c.kept} kept after a failed fetch`);
  if (c.error) parts.push(`${c.error} errors`);
  return parts.join(", ") + (written ? "" : "; nothing written");
}
