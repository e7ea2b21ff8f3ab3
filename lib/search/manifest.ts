/**
 * corpus/manifest.json: the list of documents the index may contain. Every
 * problem is collected and reported at once, each naming the file and the fix.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join, normalize, relative } from "node:path";
import { ManifestError } from "./errors.ts";

/** One corpus document. */
export interface ManifestEntry {
  id: string;
  /** Path of the markdown file, relative to the corpus directory. */
  path: string;
  title: string;
  /** Public URL of the page (e.g. "/sobre/como-funciona"), or null: never cited. */
  url: string | null;
  lang: string;
  source: string;
  license: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  /**
   * The id of the same document in the other language, when this one is its translation.
   * Search prefers the visitor's language: a page found only through the bilingual
   * lexicon gives way to its twin in the question's language.
   */
  translationOf?: string;
}

/** A validated document with its content. */
export interface CorpusDocument extends ManifestEntry {
  markdown: string;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Read and check `<corpusDir>/manifest.json` and every file it names.
 * Throws ManifestError listing every problem when anything is wrong.
 */
export async function loadCorpus(corpusDir: string): Promise<CorpusDocument[]> {
  const manifestPath = join(corpusDir, "manifest.json");
  const list = readManifestList(manifestPath);
  const where: EntryContext = { corpusDir, manifestPath, seen: new Map(), problems: [] };
  const docs: CorpusDocument[] = [];
  for (const [i, e] of list.entries()) {
    const doc = await checkEntry(e, i, where);
    if (doc) docs.push(doc);
  }
  const problems = [...where.problems, ...translationProblems(docs, manifestPath)];
  if (problems.length) {
    throw new ManifestError(
      `The corpus manifest has ${problems.length} problem(s); nothing was written:\n- ${
        problems.join("\n- ")
      }`,
    );
  }
  return docs;
}

/** The manifest's entries, unchecked; throws when the file is unreadable or not a list. */
function readManifestList(manifestPath: string): Partial<ManifestEntry>[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch (error) {
    const why = error instanceof SyntaxError ? "is not valid JSON" : "cannot be read";
    throw new ManifestError(
      `"${manifestPath}" ${why}: write a JSON array of {id, path, title, url, lang, source, license, sha256}`,
    );
  }
  // Accept a bare array or an object holding the array, as manifests vary.
  const list = Array.isArray(raw)
    ? raw
    : (raw as { documents?: unknown; entries?: unknown })?.documents ??
      (raw as { entries?: unknown })?.entries;
  if (!Array.isArray(list)) {
    throw new ManifestError(
      `"${manifestPath}" must be a JSON array of entries (or { "documents": [...] })`,
    );
  }
  return list;
}

/** Where entries are checked: the corpus, its manifest, ids seen so far, problems found. */
interface EntryContext {
  corpusDir: string;
  manifestPath: string;
  /** Entry index by id, to name both entries of a duplicate. */
  seen: Map<string, number>;
  problems: string[];
}

/** Entry `i` as a document, or null with its problems added to `context.problems`. */
async function checkEntry(
  e: Partial<ManifestEntry>,
  i: number,
  context: EntryContext,
): Promise<CorpusDocument | null> {
  const { manifestPath, seen, problems } = context;
  const where = `entry ${i}${e?.id ? ` ("${e.id}")` : ""} of "${manifestPath}"`;
  if (!e || typeof e !== "object") {
    problems.push(
      `${where} is not an object: give it id, path, title, url, lang, source, license, sha256`,
    );
    return null;
  }
  if (typeof e.id !== "string" || !e.id) {
    problems.push(`${where} has no id: add a unique "id"`);
    return null;
  }
  if (seen.has(e.id)) {
    problems.push(
      `Duplicate id "${e.id}" in entries ${
        seen.get(e.id)
      } and ${i} of "${manifestPath}": make ids unique`,
    );
    return null;
  }
  seen.set(e.id, i);
  if (typeof e.license !== "string" || !e.license.trim()) {
    problems.push(
      `${where} has no license: add "license" (e.g. "CC-BY-4.0") for "${e.path ?? e.id}"`,
    );
  }
  const file = await readEntryFile(e, where, context);
  if (!file) return null;
  if (e.url !== null && e.url !== undefined && typeof e.url !== "string") {
    problems.push(`${where} has a non-string url: use a path like "/sobre" or null`);
    return null;
  }
  if (e.translationOf !== undefined && typeof e.translationOf !== "string") {
    problems.push(`${where} has a non-string translationOf: use the other document's id`);
    return null;
  }
  return {
    id: e.id,
    path: e.path!,
    title: typeof e.title === "string" ? e.title : e.id,
    url: e.url || null,
    lang: typeof e.lang === "string" ? e.lang : "pt",
    source: typeof e.source === "string" ? e.source : "",
    license: e.license ?? "",
    sha256: file.sha256,
    ...(typeof e.translationOf === "string" ? { translationOf: e.translationOf } : {}),
    markdown: new TextDecoder().decode(file.bytes),
  };
}

/**
 * The bytes of the entry's file and their checksum, when its path stays inside the corpus,
 * the file exists and the manifest's sha256 matches it; null with the problem added otherwise.
 */
async function readEntryFile(
  e: Partial<ManifestEntry>,
  where: string,
  { corpusDir, problems }: EntryContext,
): Promise<{ bytes: Uint8Array; sha256: string } | null> {
  if (typeof e.path !== "string" || !e.path) {
    problems.push(`${where} has no path: add "path" relative to "${corpusDir}"`);
    return null;
  }
  const file = normalize(join(corpusDir, e.path));
  const rel = relative(corpusDir, file);
  if (isAbsolute(e.path) || rel.startsWith("..")) {
    problems.push(
      `${where} path "${e.path}" leaves the corpus directory: use a path inside "${corpusDir}"`,
    );
    return null;
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch {
    problems.push(`Missing file "${file}" named by ${where}: add the file or remove the entry`);
    return null;
  }
  const actual = await sha256Hex(bytes);
  if (typeof e.sha256 !== "string" || e.sha256.toLowerCase() !== actual) {
    problems.push(
      `Checksum mismatch for "${file}": manifest has "${e.sha256 ?? ""}", file is "${actual}"; ` +
        `update "sha256" in the manifest if the edit is intended`,
    );
    return null;
  }
  return { bytes, sha256: actual };
}

/** A `translationOf` must name another document of the manifest, in another language. */
function translationProblems(docs: readonly CorpusDocument[], manifestPath: string): string[] {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const problems: string[] = [];
  for (const doc of docs) {
    if (doc.translationOf === undefined) continue;
    const twin = byId.get(doc.translationOf);
    if (!twin || twin === doc || twin.lang === doc.lang) {
      problems.push(
        `"${doc.id}" in "${manifestPath}" has translationOf "${doc.translationOf}", which is ${
          twin ? `in the same language ("${doc.lang}")` : "no document's id"
        }: give the id of the same document in the other language, or remove the field`,
      );
    }
  }
  return problems;
}
