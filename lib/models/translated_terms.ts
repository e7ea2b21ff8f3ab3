/**
 * The question as the offline model reads a page in the other language: the search's
 * translation of it (each content word a group of senses, lib/search/lexicon.ts), one term per
 * word, so that a sentence holding any one sense of a word matches that word once, as the
 * search scored it. Without it, an English question shares no word with a Portuguese page's
 * sentences and the page the search found is quoted at random or refused.
 */
import type { SearchTranslation } from "@/lib/protocol/ui_message.ts";
import { contentTerms } from "./terms.ts";

/** The translated question's terms, and how a text's own terms are read against them. */
export interface TranslatedTerms {
  /** One term per translated word: its first sense's. */
  terms: Set<string>;
  /** `terms` of a text with every sense also counted as its word's term. */
  canon: (terms: Set<string>) => Set<string>;
}

/** The terms of `translation`'s words; null when none has a content term. */
export function translatedTerms(translation: SearchTranslation): TranslatedTerms | null {
  const key = new Map<string, string>();
  const terms = new Set<string>();
  for (const senses of translation.words) {
    const group = [...new Set(senses.flatMap((s) => [...contentTerms(s)]))];
    if (!group.length) continue;
    // Two words that share a sense are one word ("file" and "archive" → "arquivo").
    const shared = group.find((t) => key.has(t));
    const word = shared === undefined ? group[0] : key.get(shared)!;
    terms.add(word);
    for (const t of group) if (!key.has(t)) key.set(t, word);
  }
  if (!terms.size) return null;
  return {
    terms,
    canon: (own) => {
      const out = new Set(own);
      for (const t of own) {
        const word = key.get(t);
        if (word) out.add(word);
      }
      return out;
    },
  };
}
