/** The content gaps as CSV (RFC 4180), for /admin/gaps.csv. */
import type { GapGroup } from "./group.ts";

/** One CSV field: quoted, quotes doubled; a leading formula sign is defused for spreadsheets. */
function field(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** The groups, one row each, newest first, with a header row. */
export function gapsCsv(groups: readonly GapGroup[]): string {
  const rows = [[
    "question",
    "lang",
    "count",
    "not_covered",
    "stopped",
    "thumbs_down",
    "retried",
    "related",
    "last_at",
    "chat_ids",
    "questions",
    "went_on_to",
  ]];
  for (const g of groups) {
    rows.push([
      g.question,
      g.lang,
      String(g.count),
      String(g.reasons["not-covered"] ?? 0),
      String(g.reasons.stopped ?? 0),
      String(g.reasons["thumbs-down"] ?? 0),
      String(g.reasons.retried ?? 0),
      String(g.reasons.related ?? 0),
      new Date(g.lastAt).toISOString(),
      g.chatIds.join(" "),
      g.questions.join(" | "),
      g.followed.join(" | "),
    ]);
  }
  return rows.map((r) => r.map(field).join(",")).join("\r\n") + "\r\n";
}
