/**
 * "What is X?" questions and the sentences that answer them by defining X ("A memória é um
 * dispositivo…", "Programas são…", "Entende-se por regime … a …"). The offline model gives
 * such a sentence a bonus over one that only mentions X.
 */

/**
 * A question that asks what something is, and the subject it asks about. Read on the first
 * 300 characters only, so the lazy subject group stays bounded on any input.
 */
const ASKS_DEFINITION =
  /^\s*(?:(?:o )?que (?:é|e|são|sao|significa|significam|seria|seriam)|o que se entende por|qual (?:é )?o (?:significado|conceito) de|what is meant by|what (?:is|are))\s+(.{1,200}?)\s*\??\s*$/i;

/** The text of what a "what is X?" question asks to define ("o MIT"), or null. */
export function definitionSubject(question: string): string | null {
  return ASKS_DEFINITION.exec(question.slice(0, 300))?.[1] ?? null;
}

/** Verbs after which a sentence says what its subject is. */
const COPULA = new Set(
  `é são era eram foi foram seria seriam consiste consistem significa significam designa
  designam is are was were means refers`.split(/\s+/),
);

/** Frames that put the defined term after them: "Entende-se por X …", "Chama-se X …". */
const DEFINING_FRAME = /^(?:entende-se|define-se|chama-se|denomina-se|designa-se)$/;

/** How far into a sentence its subject may run before the copula. */
const HEAD_WORDS = 16;

/**
 * The words a sentence defines, when it reads as a definition: those before a copula near
 * its start ("A unidade lógica e aritmética (ULA)" in "A unidade lógica e aritmética (ULA) é
 * …"), or the head of the sentence after a defining frame; else null.
 */
export function definitionHead(sentence: string): string | null {
  const head = sentence.slice(0, 300).split(/\s+/, HEAD_WORDS);
  for (let i = 0; i < head.length; i++) {
    const word = head[i].toLowerCase().replace(/[,;:]$/, "");
    // A copula first ("É o principal…") leaves the subject to the sentence before.
    if (i > 0 && COPULA.has(word)) return head.slice(0, i).join(" ");
    if (DEFINING_FRAME.test(word)) return head.join(" ");
  }
  return null;
}
