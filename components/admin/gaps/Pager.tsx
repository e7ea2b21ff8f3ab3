import { format } from "@/lib/i18n/mod.ts";
import type { GapMessages } from "@/lib/i18n/gaps.ts";
import type { PageOf } from "@/lib/gaps/page_of.ts";

/**
 * "31–60 de 660" and the links to the newer and older pages of one section of /admin/gaps.
 * The links keep the other sections' pages (`url`'s other parameters) and land on the section.
 */
export function Pager(
  { url, param, section, of, label, g }: {
    url: URL;
    /** The query parameter holding this section's page. */
    param: string;
    /** The section's element id. */
    section: string;
    of: PageOf<unknown>;
    label: string;
    g: GapMessages;
  },
) {
  if (of.pages === 1) return null;
  const link = (page: number) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("done");
    if (page === 1) params.delete(param);
    else params.set(param, String(page));
    const query = params.toString();
    return `/admin/gaps${query ? `?${query}` : ""}#${section}`;
  };
  const range = format(g.range, {
    first: of.first,
    last: of.first + of.items.length - 1,
    total: of.total,
  });
  return (
    <nav class="gap-pager" aria-label={label}>
      {of.page > 1 && <a href={link(of.page - 1)} rel="prev">{g.newer}</a>}
      <span>{range}</span>
      {of.page < of.pages && <a href={link(of.page + 1)} rel="next">{g.older}</a>}
    </nav>
  );
}
