/**
 * The shapes shared by the import modules: a page as a source yields it, a
 * document ready for the corpus, and one line of the report.
 */

/** Corpus languages. */
export type DocLang = "pt" | "en";

/** One document produced by an import, before it is written. */
export interface ImportedDoc {
  /** Where it came from: the page URL as listed, or the file path relative to the folder. */
  origin: string;
  /** The document's public URL (canonical when the page names one), or null (internal). */
  url: string | null;
  title: string;
  lang: DocLang;
  license: string;
  source: string;
  markdown: string;
  /** Whether the markdown came verbatim from a markdown source (never stripped of boilerplate). */
  verbatim: boolean;
}

/** What happened to one page or document. */
export type ReportKind =
  | "added"
  | "changed"
  | "removed"
  | "unchanged"
  | "skipped"
  | "kept"
  | "note"
  | "error";

/** One line of the import report. */
export interface ReportEntry {
  kind: ReportKind;
  /** The page URL, file path or source the line is about. */
  target: string;
  /** Why (for skipped, kept, removed, note, error) or where it was written (added, changed). */
  detail: string;
}
