/** Writing a prepared import through the chat store, and its summary for a person. */
import type { ChatStore } from "@/lib/store/ports.ts";
import { MAX_LISTED, type PreparedChat, type PreparedImport } from "./import_file.ts";

/** Options of `writeImport`. */
export interface WriteOptions {
  /** Replace a chat that already exists (same visitor); otherwise it is skipped. */
  replace?: boolean;
}

/** What `writeImport` did. */
export interface WriteReport {
  written: string[];
  skipped: Array<{ id: string; reason: string }>;
  failed: Array<{ id: string; error: string }>;
  /** `beginTurn` calls made. */
  commits: number;
}

/**
 * Writes prepared chats through the chat store, one chat after another, each in
 * as many `beginTurn` commits as it needs. An existing chat is skipped (or, with
 * `replace`, deleted and written again); a chat that fails half-way is removed.
 * Both deletions let the id be written again (no tombstone).
 */
export async function writeImport(
  store: ChatStore,
  prepared: PreparedImport,
  options: WriteOptions = {},
): Promise<WriteReport> {
  const report: WriteReport = { written: [], skipped: [], failed: [], commits: 0 };
  // Decide every skip before the first write.
  const plan: PreparedChat[] = [];
  for (const chat of prepared.chats) {
    const existing = await store.getChat(chat.id);
    if (existing && existing.visitorId !== prepared.visitorId) {
      report.skipped.push({
        id: chat.id,
        reason: "a chat with this id belongs to another visitor",
      });
    } else if (existing && !options.replace) {
      report.skipped.push({ id: chat.id, reason: "already imported (use --replace)" });
    } else plan.push(chat);
  }
  for (const chat of plan) {
    try {
      if (options.replace) await store.deleteChat(chat.id, { allowReuse: true });
      for (const append of chat.commits) {
        await store.beginTurn({
          chatId: chat.id,
          visitorId: prepared.visitorId,
          replaceFrom: null,
          append,
          title: chat.title,
        });
        report.commits++;
      }
      report.written.push(chat.id);
    } catch (error) {
      report.failed.push({ id: chat.id, error: (error as Error).message });
      try {
        await store.deleteChat(chat.id, { allowReuse: true });
      } catch {
        // The failure is reported already; a half chat expires with its retention.
      }
    }
  }
  return report;
}

/** A human summary of an import. */
export function formatSummary(prepared: PreparedImport, report?: WriteReport): string {
  const t = prepared.totals;
  const lines = [
    `Visitor: ${prepared.visitorId}`,
    `Chats: ${t.chats} in the file` +
    (report
      ? `, ${report.written.length} written (${report.commits} commits), ${report.skipped.length} skipped, ${report.failed.length} failed`
      : " (dry run: nothing written)"),
    `Messages: ${t.messagesIn} AI SDK 4 messages → ${t.messagesOut} UI messages ` +
    `(${t.systemDropped} system dropped, ${t.droppedParts} empty/redacted parts dropped)`,
    `Tool calls: ${t.toolCalls}, matched with a result ${t.matched} (${t.toolErrors} errors), ` +
    `unmatched: ${t.pending} calls without a result, ${t.orphanResults} results without a call`,
  ];
  for (const s of report?.skipped ?? []) lines.push(`Skipped ${s.id}: ${s.reason}`);
  for (const f of report?.failed ?? []) lines.push(`FAILED ${f.id}: ${f.error}`);
  if (prepared.warnings.length) {
    lines.push(`Warnings (${prepared.warnings.length}):`);
    for (const w of prepared.warnings.slice(0, MAX_LISTED)) lines.push(`  - ${w}`);
    if (prepared.warnings.length > MAX_LISTED) {
      lines.push(`  … and ${prepared.warnings.length - MAX_LISTED} more`);
    }
  }
  return lines.join("\n");
}
