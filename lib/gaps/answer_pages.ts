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
    throw new OwnerAnswerInputError(
      `Write the title or the question of the page in 1 to ${max} characters.`,
    );
  }
  const { passages } = await search.search(words, { k: 5 });
  const found = passages.find((p) =>
    p.url !== null && PAGE_URL.test(p.url) && !p.id.startsWith(OWNER_DOC_PREFIX)
  );
  if (!found?.url) {
    throw new OwnerAnswerInputError(
      `Nothing on the site matches "${words}": write the title or the question of the page.`,
    );
  }
  return { id: found.id, title: found.title, url: found.url };
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
