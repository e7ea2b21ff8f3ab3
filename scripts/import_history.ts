/**
 * `deno task import-history <file.json> [--visitor <id>] [--replace] [--dry-run] [--settle-pending]`
 *
 * Imports chats stored by an AI SDK 4 app (arrays of CoreMessage) into this
 * app's chat store as ai 7 UI messages. The file format and the conversion are
 * documented in lib/chat/history_import/. The whole file is checked first:
 * on any problem nothing is written and the exit code is 1. KV is opened like
 * the server opens it (DENO_KV_PATH, else .data/kv.sqlite); chats expire
 * `retentionDays` (fresh.config.ts) after the import.
 *
 * --visitor <id>     owner of the chats (overrides the file's "visitorId")
 * --replace          rewrite chats that already exist (default: skip them)
 * --dry-run          check and convert, print the summary, write nothing
 * --settle-pending   finish calls that never got a result as errors
 */
import { parseArgs } from "node:util";
import config from "@/fresh.config.ts";
import { openKv } from "@/lib/store/kv.ts";
import { createKvChatStore } from "@/lib/store/chats.ts";
import { ImportFileError } from "@/lib/chat/history_import/import_file.ts";
import { prepareImport } from "@/lib/chat/history_import/prepare.ts";
import { formatSummary, writeImport } from "@/lib/chat/history_import/write.ts";

const USAGE =
  "Usage: deno task import-history <file.json> [--visitor <id>] [--replace] [--dry-run] [--settle-pending]";

async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        visitor: { type: "string" },
        replace: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        "settle-pending": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const path = positionals[0];
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    console.error(`Cannot read "${path}": ${(error as Error).message}`);
    return 1;
  }
  let prepared;
  try {
    prepared = await prepareImport(text, {
      visitorId: values.visitor,
      settlePending: values["settle-pending"],
    });
  } catch (error) {
    if (error instanceof ImportFileError) {
      console.error(`${path}: ${error.message}`);
      return 1;
    }
    throw error;
  }
  if (values["dry-run"]) {
    console.log(formatSummary(prepared));
    return 0;
  }
  const kv = await openKv(Deno.env.get("DENO_KV_PATH"));
  try {
    const store = createKvChatStore(kv, { retentionDays: config.retentionDays });
    const report = await writeImport(store, prepared, { replace: values.replace });
    console.log(formatSummary(prepared, report));
    return report.failed.length ? 1 : 0;
  } finally {
    kv.close();
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
