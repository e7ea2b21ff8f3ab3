/**
 * The manifest side of an import: match the new documents with the entries an
 * earlier run of the same source wrote, plan added / changed / unchanged /
 * removed, then apply the plan so that the corpus is never half-written.
 *
 * A document whose text changed gets a new file name (`<slug>.<sha8>.md`):
 * the old manifest keeps pointing at intact files until the new manifest,
 * written to a temporary file, is renamed over it. Only then are old files
 * deleted. A failure before that rename removes the new files and leaves
 * the corpus exactly as it was.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ManifestEntry } from "@/lib/search/manifest.ts";
import { slugify } from "@/lib/search/slug.ts";
import type { ImportedDoc } from "./types.ts";

/** A manifest entry, with where an import got it from (absent for hand-written documents). */
export interface ManifestRecord extends ManifestEntry {
  import?: { from: string; origin: string };
}

/** One document the plan adds or changes. */
export interface PlannedDoc {
  record: ManifestRecord;
  /** The file to write (relative to the corpus folder), or null when the bytes did not change. */
  write: { path: string; bytes: Uint8Array } | null;
  /** The file of the previous version, deleted once the new manifest is in place. */
  oldPath?: string;
}

/** What applying an import will do. */
export interface ImportPlan {
  added: PlannedDoc[];
  changed: PlannedDoc[];
  unchanged: ManifestRecord[];
  removed: ManifestRecord[];
  /** The whole next manifest, in order: old entries in place, new ones appended. */
  next: ManifestRecord[];
}

/** Reads `<corpusDir>/manifest.json` as records (an absent file is an empty manifest). */
export function readManifest(corpusDir: string): ManifestRecord[] {
  const file = join(corpusDir, "manifest.json");
  if (!existsSync(file)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new Error(`"${file}" is not valid JSON: fix it before importing (nothing was written)`);
  }
  const list = Array.isArray(raw) ? raw : (raw as { documents?: unknown })?.documents;
  if (!Array.isArray(list)) {
    throw new Error(`"${file}" is not a JSON array of entries: fix it before importing`);
  }
  return list as ManifestRecord[];
}

/** Hex SHA-256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Options of `planImport`. */
export interface PlanOptions {
  /** The import source's key ("https://site/sitemap.xml", "site/public"). */
  from: string;
  /** Id prefix and folder name of this source's documents ("example-com"). */
  prefix: string;
  /** Origins that failed for a passing reason this run: their documents are kept as they are. */
  keep: ReadonlySet<string>;
  /** Keep every earlier document this run did not see (the source was only partly read). */
  keepUnseen?: boolean;
}

/** Compares `docs` with the manifest entries of the same source. */
export async function planImport(
  current: readonly ManifestRecord[],
  docs: readonly ImportedDoc[],
  options: PlanOptions,
): Promise<ImportPlan> {
  const mine = new Map<string, ManifestRecord>();
  const taken = new Set<string>();
  for (const r of current) {
    if (r.import?.from === options.from) mine.set(r.import.origin, r);
    else taken.add(r.id);
  }
  const plan: ImportPlan = { added: [], changed: [], unchanged: [], removed: [], next: [] };
  const replaced = new Map<string, ManifestRecord>();
  for (const doc of docs) {
    const bytes = new TextEncoder().encode(doc.markdown);
    const sha = await sha256Hex(bytes);
    const old = mine.get(doc.origin);
    const slug = slugOf(doc.origin);
    const id = old?.id ?? uniqueId(`${options.prefix}-${slug}`, taken);
    taken.add(id);
    const sameBytes = old?.sha256 === sha;
    const path = sameBytes ? old!.path : `imported/${options.prefix}/${slug}.${sha.slice(0, 8)}.md`;
    const record: ManifestRecord = {
      id,
      path,
      title: doc.title,
      url: doc.url,
      lang: doc.lang,
      source: doc.source,
      license: doc.license,
      sha256: sha,
      import: { from: options.from, origin: doc.origin },
    };
    const planned: PlannedDoc = { record, write: sameBytes ? null : { path, bytes } };
    if (old && !sameBytes) planned.oldPath = old.path;
    if (!old) plan.added.push(planned);
    else if (sameBytes && sameEntry(old, record)) plan.unchanged.push(old);
    else (plan.changed.push(planned), replaced.set(old.id, record));
  }
  const present = new Set(docs.map((d) => d.origin));
  for (const [origin, r] of mine) {
    if (!present.has(origin) && !options.keep.has(origin) && !options.keepUnseen) {
      plan.removed.push(r);
    }
  }
  const gone = new Set(plan.removed.map((r) => r.id));
  plan.next = current.filter((r) => !gone.has(r.id)).map((r) => replaced.get(r.id) ?? r)
    .concat(plan.added.map((a) => a.record));
  return plan;
}

const sameEntry = (a: ManifestRecord, b: ManifestRecord) =>
  a.title === b.title && a.url === b.url && a.lang === b.lang && a.source === b.source &&
  a.license === b.license && a.path === b.path;

/** A file-name slug of an origin URL or path ("docs/guia/index.html" → "docs-guia"). */
export function slugOf(origin: string): string {
  let path = origin;
  try {
    const u = new URL(origin);
    path = u.pathname + (u.search ? `-${u.search}` : "");
  } catch {
    // A folder-relative path already.
  }
  path = path.replace(/(^|\/)index\.(html?|mdx?)$/i, "").replace(/\.(html?|mdx?)$/i, "");
  const s = slugify(path.replace(/\//g, " "));
  return (s === "section" ? "index" : s).slice(0, 80).replace(/-+$/, "");
}

function uniqueId(base: string, taken: ReadonlySet<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * Writes the plan into `corpusDir`: new files, then the manifest (temporary
 * file + rename), then old files are deleted. Nothing changes on failure.
 */
export function applyPlan(corpusDir: string, plan: ImportPlan): void {
  const written: string[] = [];
  const manifest = join(corpusDir, "manifest.json");
  const tmp = `${manifest}.tmp-${Deno.pid}`;
  try {
    for (const { write } of [...plan.added, ...plan.changed]) {
      if (!write) continue;
      const file = join(corpusDir, write.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, write.bytes);
      renameSync(`${file}.tmp`, file);
      written.push(file);
    }
    writeFileSync(tmp, JSON.stringify(plan.next, null, 2) + "\n");
    renameSync(tmp, manifest);
  } catch (error) {
    for (const f of written) rmSync(f, { force: true });
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Not ours to remove (e.g. a folder of that name): the manifest itself is untouched.
    }
    throw error;
  }
  const live = new Set(plan.next.map((r) => r.path));
  const old = [...plan.removed.map((r) => r.path), ...plan.changed.map((c) => c.oldPath)];
  for (const path of old) {
    if (path && !live.has(path)) rmSync(join(corpusDir, path), { force: true });
  }
}
