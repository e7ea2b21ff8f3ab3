/**
 * The related questions offered under an answer: the FAQ entries its search found but the
 * answer did not quote, as questions the visitor can ask with one click. The search often
 * ranks the entry a visitor meant second or third (their words are not the site's), and the
 * answer quotes the first; the entry's own question, offered beside it, is the way there.
 * Shared: the chat shows them, the turn records a visitor who goes on to one as a content gap
 * (lib/gaps/turn_gap.ts), the answer eval counts them (scripts/eval_answers.ts).
 */
import type {
  ChatMessage,
  PublicPassage,
  RelatedEntry,
  SearchToolOutput,
} from "@/lib/protocol/ui_message.ts";
import { entryQuestion } from "./faq_heading.ts";
import { citedNumbers } from "./message_citations.ts";

/** A passage a turn's search returned, as the chat and the eval both see it. */
export interface FoundPassage {
  /** Its source number, for a passage shown; none for an entry ranked past them (`more`). */
  n?: number;
  /** Its heading path. */
  title: string;
  url?: string | null;
  /** The share of the question the passage holds (lib/search/types.ts `Passage.match`). */
  match?: number;
  /** An FAQ entry whose question shares a word with the query (lib/tools/search_site.ts). */
  relatedQuestion?: boolean;
}

/** A question offered under an answer, and the address of the entry it asks. */
export interface RelatedQuestion {
  question: string;
  url: string;
}

/** How many related questions an answer offers at most. */
export const MAX_RELATED = 3;

/**
 * Least `match` of an entry offered: the offline model's "not covered" gate
 * (lib/models/extractive.ts MIN_MATCH), so a question is offered only when it would itself
 * count as found. Lower, off-topic questions got a list of unrelated ones.
 */
export const RELATED_MIN_MATCH = 0.54;

/**
 * The FAQ entries among `found` (the passages shown, then the entries ranked past them) that
 * the answer did not cite (`cited`: its source numbers), whose question shares a word with the
 * visitor's and which the search counts as found, in the search's order, each question once,
 * at most `MAX_RELATED`; an entry at the URL of a cited passage is no other question.
 */
export function relatedQuestions(
  found: readonly FoundPassage[],
  cited: ReadonlySet<number>,
): RelatedQuestion[] {
  const citedUrls = new Set(
    found.filter((p) => p.n !== undefined && cited.has(p.n) && p.url).map((p) => p.url),
  );
  const seen = new Set<string>();
  const out: RelatedQuestion[] = [];
  for (const p of found) {
    if (out.length >= MAX_RELATED) break;
    // An internal passage has no address: it is never offered.
    if (!p.url || (p.n !== undefined && cited.has(p.n)) || !p.relatedQuestion) continue;
    if (p.match === undefined || p.match < RELATED_MIN_MATCH || citedUrls.has(p.url)) continue;
    const question = entryQuestion(p.title).trim();
    const key = question.toLocaleLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ question, url: p.url });
  }
  return out;
}

/**
 * The passages a search tool's output returned, in order, then the FAQ entries ranked past them
 * (`more`): the pool of the related questions. Internal passages carry no number and are left
 * out; anything else than a search output gives nothing (an output saved in KV is read as is).
 */
export function foundInOutput(output: unknown): FoundPassage[] {
  const { passages, more } = (output ?? {}) as Partial<Record<keyof SearchToolOutput, unknown>>;
  if (!Array.isArray(passages)) return [];
  const out: FoundPassage[] = [];
  for (const p of passages as Array<Partial<PublicPassage>>) {
    if (typeof p?.n !== "number" || typeof p.title !== "string") continue;
    out.push({
      n: p.n,
      title: p.title,
      url: p.url,
      match: p.match,
      relatedQuestion: p.relatedQuestion,
    });
  }
  if (Array.isArray(more)) {
    for (const e of more as RelatedEntry[]) {
      if (typeof e?.title === "string") out.push({ ...e, relatedQuestion: true });
    }
  }
  return out;
}

/** The pool of the related questions under an answer, from each of its searches. */
export function foundPassagesOf(message: ChatMessage): FoundPassage[] {
  return message.parts.flatMap((part) =>
    part.type === "tool-search_site" && part.state === "output-available"
      ? foundInOutput(part.output)
      : []
  );
}

/**
 * The related questions offered under an answer: FAQ entries it found but did not quote. A
 * failed, stopped or pending answer offers none: it is redone or resumed first.
 */
export function relatedQuestionsOf(message: ChatMessage): RelatedQuestion[] {
  const outcome = message.metadata?.outcome;
  if (outcome !== undefined && outcome !== "finished") return [];
  return relatedQuestions(foundPassagesOf(message), citedNumbers(message));
}

/**
 * Whether `question` is one of the related questions offered under `answer`: the visitor went
 * on from it (a click, or the same words typed), so the answer likely missed what they asked.
 */
export function followsRelated(answer: ChatMessage, question: string): boolean {
  const asked = question.trim().toLocaleLowerCase();
  return relatedQuestionsOf(answer).some((r) => r.question.toLocaleLowerCase() === asked);
}
