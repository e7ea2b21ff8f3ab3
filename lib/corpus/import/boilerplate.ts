/**
 * Repeated boilerplate: a block (paragraph, list, line) that turns up on many
 * pages of one import — a shared call to action, a banner Readability kept,
 * a "last updated by" line — is site chrome, not content. Headings are kept:
 * a repeated "## Introduction" is structure.
 */

/** Options of `stripRepeatedBlocks`. */
export interface RepeatOptions {
  /** A block on at least this share of the pages is boilerplate (default 0.5). */
  share?: number;
  /** …and on at least this many pages (default 3). */
  minPages?: number;
}

const key = (block: string) => block.replace(/\s+/g, " ").trim().toLowerCase();
const blocksOf = (md: string) => md.split(/\n{2,}/);
const isHeading = (block: string) => /^#{1,6}\s/.test(block.trim());

/**
 * The markdown of each page without the blocks repeated across pages, and
 * the removed blocks (for the report). Pages keep their order.
 */
export function stripRepeatedBlocks(
  pages: readonly string[],
  options: RepeatOptions = {},
): { pages: string[]; removed: string[] } {
  const minPages = options.minPages ?? 3;
  const need = Math.max(minPages, Math.ceil(pages.length * (options.share ?? 0.5)));
  const count = new Map<string, number>();
  for (const md of pages) {
    for (const k of new Set(blocksOf(md).filter((b) => !isHeading(b)).map(key))) {
      if (k) count.set(k, (count.get(k) ?? 0) + 1);
    }
  }
  const repeated = new Set([...count].filter(([, n]) => n >= need).map(([k]) => k));
  if (!repeated.size) return { pages: [...pages], removed: [] };
  const out = pages.map((md) => {
    const kept = blocksOf(md).filter((b) => isHeading(b) || !repeated.has(key(b)));
    return kept.join("\n\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
  });
  return { pages: out, removed: [...repeated] };
}
