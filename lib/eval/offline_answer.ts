/**
 * The offline model's answer to a question over a search's result, read as the model reads it
 * (lib/models/local_model.ts): the question without its courtesy and with chat spellings written
 * out, the passages numbered in the search's order. For the evals that probe the answer's gate
 * without a chat turn (scripts/eval_gate.ts) and the tests that ask a real site.
 */
import {
  type AnswerPassage,
  buildExtractiveAnswer,
  type ExtractiveOptions,
} from "@/lib/models/extractive.ts";
import { askedPart } from "@/lib/search/asked_part.ts";
import type { SearchResult, SiteSearch } from "@/lib/search/types.ts";
import { plainQuestion } from "@/lib/text/visitor_question.ts";

/** A result's passages as the model numbers them ([1] first). */
export type NumberedPassage = SearchResult["passages"][number] & AnswerPassage & { n: number };

/** The answer's text over `result`, with the gate's thresholds `gate` (the app's by default). */
export function answerOver(
  question: string,
  result: Pick<SearchResult, "passages" | "translation">,
  gate: Pick<ExtractiveOptions, "minMatch" | "minCoverage"> = {},
): { text: string; passages: NumberedPassage[] } {
  const passages = result.passages.map((p, i) => ({ ...p, n: i + 1 }));
  const text = buildExtractiveAnswer(askedPart(plainQuestion(question)), passages, {
    translation: result.translation,
    ...gate,
  });
  return { text, passages };
}

/** `search` asked `question` as the model asks it (five passages), and the answer over them. */
export async function askOffline(search: Pick<SiteSearch, "search">, question: string) {
  return answerOver(question, await search.search(plainQuestion(question), { k: 5 }));
}
