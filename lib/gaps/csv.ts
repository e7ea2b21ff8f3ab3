/** The content gaps as CSV (RFC 4180), for /admin/gaps.csv. */
import type { GroupStatus } from "./answered.ts";

/** One CSV field: quoted, quotes doubled; a leading formula sign is defused for spreadsheets. */
function field(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The groups, one row each, in the page's order (open, answered, dismissed; newest first in
 * each), with a header row; `status` says which.
 */
export function gapsCsv(statuses: readonly GroupStatus[]): string {
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
    "status",
  ]];
  for (const { group: g, answer, dismissal, since } of statuses) {
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
      dismissal ? "dismissed" : answer && since === 0 ? "answered" : "open",
    ]);
  }
  return rows.map((r) => r.map(field).join(",")).join("\r\n") + "\r\n";
}
