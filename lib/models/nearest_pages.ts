/**
 * What a "not covered" answer can still offer: the pages the search found closest to the
 * question, named and cited, never quoted as its answer. Words alone cannot always tell a
 * visitor's paraphrase from an off-topic question, so the gate refuses some questions the
 * site answers; for most of those the right page is the first or second the search found
 * (13 of the 15 pyfaq dev and held-out questions refused, docs/history/benchmarks-diary.md),
 * and naming it turns a refusal into a pointer.
 */
import type { AnswerLang } from "@/lib/search/detect_lang.ts";
import { entryQuestion, isFaqEntry } from "@/lib/search/question_kind.ts";
import { contentTerms, questionTerms } from "./terms.ts";

/** A found passage, as the offline model reads it. */
export interface FoundPassage {
  n: number;
  title: string;
  /** The search's score: only pages scoring near the closest one are named with it. */
  score: number;
  /** Share of the question's weight the passage and the site hold (lib/search/engine.ts). */
  match?: number;
}

/**
 * Least `match` of a page to be named: under it the page shares little more than a word
 * with the question ("Vocês entregam pizza?"), and naming it would only be noise.
 */
const NEAREST_MIN = 0.4;

/** Most pages named. */
const NEAREST_MAX = 2;

/**
 * Least score of a second page, as a share of the first's: a page far behind shares a
 * common word with the question ("Eu posso apagar o Python?" for "Dá pra mandar email…").
 */
const NEAREST_RATIO = 0.75;

/** Words of the question a named page's title must hold (fewer when the question has fewer). */
const TITLE_SHARED = 2;

/** Longest title named whole. */
const TITLE_CHARS = 90;

const LEAD: Record<AnswerLang, string> = {
  pt: "O mais próximo que encontrei:",
  en: "The closest I found:",
};

const AND: Record<AnswerLang, string> = { pt: "e", en: "and" };

/**
 * The sentence naming the pages closest to the question, in the search's order, or null when
 * none is close enough (or the search did not say how close).
 *
 * @example
 * ```ts
 * nearestPages("Como clono um objeto?", [{ n: 1, title: "FAQ › Como copio um objeto?", score: 3, match: 0.5 }], "pt");
 * // "O mais próximo que encontrei: “Como copio um objeto?” [1]."
 * ```
 */
export function nearestPages(
  question: string,
  passages: readonly FoundPassage[],
  lang: AnswerLang,
): string | null {
  const asked = questionTerms(question);
  const named: string[] = [];
  const seen = new Set<string>();
  let first: number | null = null;
  for (const p of passages) {
    if (named.length >= NEAREST_MAX) break;
    if (typeof p.match !== "number" || p.match < NEAREST_MIN) continue;
    if (first !== null && p.score < NEAREST_RATIO * first) break;
    first ??= p.score;
    const title = shownTitle(p.title);
    if (!title || seen.has(title)) continue;
    // A page is named for what its title says, not for a word of its text ("Vocês entregam
    // pizza?" shares words with a page about threads), and for two of the question's words:
    // one is a collision as often as not ("lose weight fast" / "How fast are exceptions?").
    const shared = [...contentTerms(title)].filter((t) => asked.has(t)).length;
    if (shared < Math.min(TITLE_SHARED, asked.size)) continue;
    seen.add(title);
    named.push(`“${title}” [${p.n}]`);
  }
  if (!named.length) return null;
  return `${LEAD[lang]} ${named.join(` ${AND[lang]} `)}.`;
}

/** An FAQ entry by its own question; a section by its heading path, cut on a word. */
function shownTitle(title: string): string {
  const text = (isFaqEntry(title) ? entryQuestion(title) : title).replace(/\s+/g, " ").trim();
  if (text.length <= TITLE_CHARS) return text;
  const cut = text.slice(0, TITLE_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return (space > 40 ? cut.slice(0, space) : cut) + "…";
}
