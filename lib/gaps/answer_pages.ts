/**
 * The pages of the site an owner answers visitors' wordings with (/admin/gaps, "Responder com
 * uma página do site"): the page picked by its title or question, and the pairs whose page a
 * rebuild took out of the index.
 */
import { OWNER_DOC_PREFIX } from "@/lib/search/owner_overlay.ts";
import { currentPassage, type SiteSearch } from "@/lib/search/types.ts";
import {
  type AnswerTarget,
  OWNER_ANSWER_LIMITS,
  type OwnerAnswer,
  OwnerAnswerInputError,
} from "@/lib/store/owner_answers.ts";

/** An address a page of the site may have: root-relative or http(s), nothing else. */
const PAGE_URL = /^(?:\/(?![/\\])|https?:\/\/)/i;

/**
 * The passage of the site that answers `page` (a page's title or question, as the owner writes
 * it): the search's first passage of a site page with an address, never another answer of the
 * team. Throws OwnerAnswerInputError, naming the fix, when `page` is empty, too long or matches
 * nothing.
 */
export async function pageAnswering(search: SiteSearch, page: string): Promise<AnswerTarget> {
  const words = page.trim();
  const max = OWNER_ANSWER_LIMITS.question;
  if (!words || words.length > max) {
    throw new OwnerAnswerInputError({ kind: "pageTitle", max });
  }
  const { passages } = await search.search(words, { k: 5 });
  const found = passages.find(isSitePage);
  if (!found?.url) {
    throw new OwnerAnswerInputError({ kind: "pageUnmatched", words });
  }
  return { id: found.id, title: found.title, url: found.url };
}

/** A page of the site an answer may be given with: its own address, not a team answer. */
function isSitePage(p: { id: string; url: string | null }): boolean {
  return p.url !== null && PAGE_URL.test(p.url) && !p.id.startsWith(OWNER_DOC_PREFIX);
}

/** A page offered to answer a group with: the target, and how its text begins. */
export interface CandidatePage extends AnswerTarget {
  /** The passage's first words (about 25), so a bare section title can be told apart. */
  excerpt: string;
}

/** Words of a candidate's excerpt. */
const EXCERPT_WORDS = 25;

/**
 * Most pages offered to answer a group with: ten, since the right one is in the search's top
 * ten for 0.83 pt / 0.88 en of the Python FAQ's held-out questions, in its top five for 0.68 /
 * 0.85 (and the Debian FAQ's: 0.88 / 0.83 against 0.63 / 0.67).
 */
export const MAX_CANDIDATES = 10;

/**
 * The pages the search finds for a visitors' `question`, best first, each once: the right one
 * is most often among them even when the answer missed it, so the owner picks it in one click.
 * None when the search cannot be read now.
 */
export async function candidatePages(
  search: SiteSearch,
  question: string,
): Promise<CandidatePage[]> {
  try {
    const { passages } = await search.search(question, { k: MAX_CANDIDATES + 2 });
    const out: CandidatePage[] = [];
    for (const p of passages) {
      if (!isSitePage(p) || out.some((c) => c.id === p.id)) continue;
      out.push({ id: p.id, title: p.title, url: p.url!, excerpt: excerptOf(p.text) });
      if (out.length === MAX_CANDIDATES) break;
    }
    return out;
  } catch (error) {
    console.error("The pages for a group of questions could not be searched:", error);
    return [];
  }
}

/** The first words of `text`, with "…" when there is more. */
function excerptOf(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  return words.slice(0, EXCERPT_WORDS).join(" ") + (words.length > EXCERPT_WORDS ? " …" : "");
}

/**
 * The page with passage id `id` as the index holds it now (one of `candidatePages`, picked);
 * throws OwnerAnswerInputError when the index no longer holds it or it is no page of the site.
 */
export async function pageById(search: SiteSearch, id: string): Promise<AnswerTarget> {
  const page = id.length <= OWNER_ANSWER_LIMITS.question ? await currentPassage(search, id) : null;
  if (!page?.url || !isSitePage(page)) {
    throw new OwnerAnswerInputError({ kind: "pageGone" });
  }
  return { id: page.id, title: page.title, url: page.url };
}

/**
 * The ids of the answers given by a page the index no longer holds: the search leaves them out,
 * and the owner is told. A search that cannot be read now marks none.
 */
export async function pagesGone(
  search: SiteSearch,
  answers: readonly OwnerAnswer[],
): Promise<string[]> {
  const pointed = answers.filter((a) => a.target);
  try {
    const found = await Promise.all(pointed.map((a) => currentPassage(search, a.target!.id)));
    return pointed.filter((_, i) => !found[i]).map((a) => a.id);
  } catch (error) {
    console.error("The pages the answers point to could not be checked:", error);
    return [];
  }
}
