/**
 * One page of a list shown on /admin/gaps. At the stores' caps (1,000 gaps, 500 team answers)
 * the whole page was 1.4 MB of HTML and nearly a second to serve; each section shows
 * `GAPS_PAGE_SIZE` items at a time instead.
 */

/** Items a section shows at once. */
export const GAPS_PAGE_SIZE = 30;

/** A slice of a list, and where it sits. */
export interface PageOf<T> {
  items: T[];
  /** 1-based; a page past the end (the list shrank since the link was made) is the last. */
  page: number;
  pages: number;
  /** 1-based position of the first item shown; 0 when the list is empty. */
  first: number;
  total: number;
}

/** Page `requested` (1-based) of `items`, `size` at a time. */
export function pageOf<T>(items: T[], requested: number, size = GAPS_PAGE_SIZE): PageOf<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const page = Math.min(Math.max(1, requested), pages);
  const start = (page - 1) * size;
  return {
    items: items.slice(start, start + size),
    page,
    pages,
    first: items.length ? start + 1 : 0,
    total: items.length,
  };
}
