/**
 * Query-side analysis: the index terms of a question without the words that only make it
 * a question. "Quais disciplinas o aluno deve cursar?" asks about "disciplinas", "aluno"
 * and "cursar"; "quais" and "deve" occur in every question and in many passages, so
 * matching them only adds noise. Passages are indexed with these words (they may matter
 * there); only queries drop them.
 */
import {
  analyze,
  codeTerms,
  fold,
  isStopword,
  type Lang,
  LANGS,
  stem,
  tokenize,
} from "./analyzer.ts";
import type { TermRepair } from "./term_repair.ts";

/** Interrogatives that survive the stopword lists. */
const INTERROGATIVES: Record<Lang, string> = {
  pt: "qual quais quanto quanta quantos quantas onde quando como quem porque porquê",
  en: "what which where when how many much who whom whose why",
};

/**
 * Spoken contractions and chat spellings visitors type ("pra", "vc", "tá") that written
 * pages never use: they would count as rare words the site lacks.
 */
const SPOKEN: Record<Lang, string> = {
  pt: "pra pro pras pros prum pruma vc vcs ce ta to tô ne né",
  en: "gonna wanna gotta",
};

/**
 * The "do" of "how do I…?", a stopword in English: "Como faço (para)…?", "…, como faço?". As a
 * word it lifted every FAQ entry titled "Como faço para…" over the one about the asked thing.
 */
const QUESTION_DO = "faço";

/**
 * English indefinite pronouns, which the Snowball list lacks though it has "some" and "any":
 * "Can the bot buy something without asking me?" matched passages on "something". Their
 * Portuguese counterparts ("algo", "alguém") stay words: left out, "Alguém pode falsificar a
 * minha aprovação?" kept only words the site lacks and was refused.
 */
const INDEFINITES = "something anything someone anyone somebody anybody";

/**
 * The word that asks to compare ("tupla vs lista?"): it frames the question as "what is the
 * difference", and counted as a word the site lacks, it made the gate refuse it.
 */
const COMPARISON = "vs versus";

/** Verbs that frame a question ("deve ser", "pode", "can I") rather than carry its subject. */
const FRAME_VERBS: Record<Lang, string> = {
  pt: "ser deve devem devo pode podem posso poderia existe existem",
  en: "can could should must may might",
};

function stemSet(words: string, lang: Lang): Set<string> {
  return new Set(words.split(/\s+/).filter(Boolean).map((w) => stem(fold(w), lang)));
}

const DROP: Record<Lang, [Set<string>, Set<string>]> = {
  pt: [
    stemSet(`${INTERROGATIVES.pt} ${SPOKEN.pt} ${COMPARISON} ${QUESTION_DO}`, "pt"),
    stemSet(FRAME_VERBS.pt, "pt"),
  ],
  en: [
    stemSet(`${INTERROGATIVES.en} ${SPOKEN.en} ${COMPARISON} ${INDEFINITES}`, "en"),
    stemSet(FRAME_VERBS.en, "en"),
  ],
};

/**
 * How many question words a query drops: 0 none, 1 interrogatives, 2 interrogatives and
 * framing verbs.
 */
export type QuestionWordLevel = 0 | 1 | 2;

/**
 * The index terms of a query in `lang`, question words dropped up to `level`. A query
 * made only of such words keeps them all, so "quando?" still searches.
 */
export function queryTerms(
  query: string,
  lang: Lang,
  level: QuestionWordLevel,
  repair?: TermRepair,
): string[] {
  const terms = repair ? repairedTerms(query, lang, repair) : analyze(query, lang);
  if (level === 0) return terms;
  const [interrogatives, frames] = DROP[lang];
  // "Preciso de chave de API?", "Do I need an API key?": the modal that opens the question
  // frames it, and is rare in the site's prose, so it would rank an FAQ entry that shares only
  // it ("Preciso criar uma conta?") above the passage about API keys.
  const lead = leadingModal(query, lang);
  const meaning = new Set(meaningFrame(query).flatMap((w) => analyze(w, lang)));
  const kept = terms.filter((t, i) =>
    !interrogatives.has(t) && (level < 2 || !frames.has(t)) && !(i === 0 && t === lead) &&
    !meaning.has(t)
  );
  return kept.length ? kept : terms;
}

/** `analyze` with each word the index lacks spelled as the index spells it, where it can be. */
function repairedTerms(query: string, lang: Lang, repair: TermRepair): string[] {
  const out: string[] = [];
  for (const token of tokenize(query)) {
    if (isStopword(token, lang)) continue;
    const fixed = repair.repair(token, lang);
    if (fixed) out.push(...fixed);
    else out.push(stem(token, lang));
  }
  out.push(...codeTerms(query));
  return out;
}

/** Whether a folded token is a question word dropped at `level` ("quais", "how"…). */
export function isQuestionWord(token: string, lang: Lang, level: QuestionWordLevel): boolean {
  if (level === 0) return false;
  const [interrogatives, frames] = DROP[lang];
  const t = stem(token, lang);
  return interrogatives.has(t) || (level >= 2 && frames.has(t));
}

/** Interrogatives a "how/where/when do I <verb>" question puts before its verb. */
const BEFORE_VERB = new Set(["como", "onde", "quando", "how", "where", "when"]);

/**
 * Pronouns and auxiliaries between the interrogative and the verb ("como eu posso…",
 * "how do I…"). "faço para"/"pra" are not among them: the infinitive after them is the
 * subject of the question ("Como faço para emagrecer?").
 */
const BEFORE_VERB_FILLERS = new Set(
  "eu que posso devo consigo a gente se do does can could should i we you".split(" "),
);

/** Determiners of an English subject between the auxiliary and the verb ("how can my script…"). */
const SUBJECT_DETERMINERS = new Set(
  "my your our their his her its the this that these those".split(" "),
);

/**
 * Frames that ask "can I <verb>?" ("Dá pra mandar…?", "Posso usar…?", "Can I package…?"): the
 * verb after them is asked with, as after "how do I". Runs of folded tokens.
 */
const MODAL_FRAMES: readonly string[][] = [
  ..."posso podemos consigo conseguimos preciso precisamos possivel".split(" ").map((w) => [w]),
  ["da", "pra"],
  ["da", "para"],
  ["tem", "como"],
  ["ha", "como"],
  ["possible", "to"],
  ...["can", "could", "should"].flatMap((m) => [[m, "i"], [m, "we"]]),
];

/**
 * Pronouns between a modal frame and its verb ("posso eu…", "can we…"). Not "de": after
 * "preciso de" comes the noun the question is about ("Preciso de chave de API?").
 */
const AFTER_FRAME_FILLERS = new Set("eu a gente se to i we".split(" "));

/** Where the frame that starts at `i` ends (the index after it), or -1. */
function modalFrameEnd(tokens: readonly string[], i: number): number {
  const frame = MODAL_FRAMES.find((f) => f.every((t, k) => tokens[i + k] === t));
  if (!frame) return -1;
  let j = i + frame.length;
  while (j < tokens.length && AFTER_FRAME_FILLERS.has(tokens[j])) j++;
  return j;
}

/** "Sem"/"without" and the verb after it: a Portuguese infinitive or an English gerund. */
const WITHOUT = new Set(["sem", "without"]);
const VERB_FORM = /^\p{L}{2,}(?:ar|er|ir|ing)$/u;

/** "The best way to…", "a melhor forma de…": the noun, and the word that links it to its verb. */
const WAY_LINK: Record<string, string> = { way: "to", forma: "de", maneira: "de", jeito: "de" };

/** The superlative before "way" ("quickest", "best") or "melhor" before "forma". */
const WAY_SUPERLATIVE = /^(?:best|melhor|\p{L}{3,}est)$/u;

/**
 * The index terms, in every language, of the words a question asks with rather than about:
 * the verb after "como/onde/quando" or "how/where/when", past pronouns and auxiliaries (and
 * past an English subject: "how can my script fire…"), the verb after "can I", "dá pra", "posso"
 * or "sem"/"without", and in "the quickest way to dedupe…" / "o jeito mais rápido de clonar…" the verb, the
 * superlative and "way" itself. A site that lacks them may still answer the question (the
 * engine's gate).
 *
 * @example askedVerb("Como eu clono um objeto?") // Set { "clon", "clono" }
 */
export function askedVerb(query: string): Set<string> {
  const out = new Set<string>();
  for (const word of askedWords(query)) for (const lang of LANGS) out.add(stem(word, lang));
  return out;
}

/** The folded words `askedVerb` stems: what a full-text engine analyses itself (Postgres). */
export function askedWords(query: string): string[] {
  const tokens = tokenize(query.slice(0, 500));
  const out: string[] = [];
  const add = (token: string | undefined) => {
    if (token && !out.includes(token)) out.push(token);
  };
  for (let i = 0; i < tokens.length; i++) {
    const link = WAY_LINK[tokens[i]];
    if (link) {
      add(tokens[i]);
      if (WAY_SUPERLATIVE.test(tokens[i - 1] ?? "")) add(tokens[i - 1]);
      let j = i + 1;
      // "o jeito mais rápido de…": the adjective after "mais" is the superlative.
      if (tokens[j] === "mais" && link === "de") add(tokens[(j += 2) - 1]);
      if (tokens[j] === link) add(tokens[j + 1]);
      continue;
    }
    const framed = modalFrameEnd(tokens, i);
    if (framed >= 0) add(tokens[framed]);
    // "…sem mexer no original?", "…without breaking anything?": how, not what.
    if (WITHOUT.has(tokens[i]) && VERB_FORM.test(tokens[i + 1] ?? "")) add(tokens[i + 1]);
    if (!BEFORE_VERB.has(tokens[i])) continue;
    let j = i + 1;
    while (j < tokens.length && BEFORE_VERB_FILLERS.has(tokens[j])) j++;
    // "How can my script fire off…", "How does the GIL work?": past the auxiliary, the subject
    // (a determiner and its noun) comes before the verb.
    if (j > i + 1 && SUBJECT_DETERMINERS.has(tokens[j])) j += 2;
    add(tokens[j]);
  }
  return out;
}

/**
 * Modals that open a question in the first person ("Posso…", "Preciso de…", "Can I…", "Do I
 * need…"); only there are they dropped: mid-question ("O que o aluno deve fazer…") a modal
 * may be what the answer says too (FaQuAD lost 0.002 nDCG@10 when all were dropped).
 */
const LEAD_MODALS: Record<Lang, Set<string>> = {
  pt: stemSet("posso preciso devo consigo podemos precisamos devemos conseguimos", "pt"),
  en: stemSet("can need should must may could", "en"),
};

/** Pronouns and auxiliaries a leading modal may follow ("Eu preciso…", "Do I need…"). */
const BEFORE_MODAL = new Set(["eu", "nos", "i", "we", "do", "does"]);

/**
 * The words that ask what something means ("O que quer dizer rc…?", "O que significa sid?",
 * "What does rc mean…?"): a definition question's frame, not its subject.
 */
function meaningFrame(query: string): string[] {
  const q = query.slice(0, 200);
  const pt =
    /^\s*(?:e\s+)?(?:o\s+)?que\s+(?:[ée]\s+que\s+)?(?:(quer(?:em)?\s+dizer)|(significa(?:m)?))\b/iu
      .exec(q);
  if (pt) return (pt[1] ?? pt[2]).split(/\s+/);
  const en = /^\s*what\s+(?:does|do)\s+.+?\s+(mean)\b/iu.exec(q);
  return en ? [en[1]] : [];
}

/** The stem of the modal that opens the question, or null when it opens with none. */
function leadingModal(query: string, lang: Lang): string | null {
  const word = leadingModalWord(query, lang);
  return word === null ? null : stem(word, lang);
}

/**
 * The folded word of the modal that opens the question ("posso" of "Posso apagar o
 * Python?"), or null when it opens with none: a translated question leaves it out too.
 */
export function leadingModalWord(query: string, lang: Lang): string | null {
  const tokens = tokenize(query.slice(0, 200));
  let i = 0;
  while (i < tokens.length && BEFORE_MODAL.has(tokens[i])) i++;
  if (i >= tokens.length) return null;
  return LEAD_MODALS[lang].has(stem(tokens[i], lang)) ? tokens[i] : null;
}

/**
 * An English contraction's clitic left out of a query: split at the apostrophe, "you'd",
 * "I've", "we'll", "I'm", "they're" leave "d", "ve", "ll", "m", "re", which no stopword list
 * holds, and "Any linters you'd recommend?" matched passages on a variable "d". ("'s" and
 * "n't" leave the stopwords "s" and "t".) Passages keep theirs: only the query's go.
 */
const CLITIC = /(?<=\p{L})['’](?:d|ll|m|re|ve)(?![\p{L}\p{N}])/gu;
/** "won't" and "shan't" split into "won", a word of its own, and "sha". */
const IRREGULAR_NOT = /(?<![\p{L}\p{N}])(wo|sha)n['’]t(?![\p{L}\p{N}])/giu;

export function withoutClitics(query: string): string {
  if (!query.includes("'") && !query.includes("’")) return query;
  return query.replace(CLITIC, "").replace(
    IRREGULAR_NOT,
    (_, w: string) => w.toLowerCase() === "wo" ? "will not" : "shall not",
  );
}

/**
 * A question as the text a full-text engine should search (the Postgres search analyses
 * text, not terms): the words `queryTerms` leaves out are cut — stopwords, interrogatives,
 * spoken contractions ("pra", "vc"), the opening modal, the "what does it mean" frame, an
 * English clitic — in any of `langs`, and everything else stays as typed, code included
 * ("list.sort()"). Stopwords go here too because Postgres reads its stop list after unaccent:
 * "são", "não" came through as "sao", "nao". A question made only of such words stays whole,
 * so "quando?" still searches.
 */
export function searchText(query: string, langs: readonly Lang[]): string {
  const text = withoutClitics(query);
  const leading = new Set<string | null>([
    ...langs.map((l) => leadingModalWord(text, l)),
    ...meaningFrame(text).map(fold),
  ]);
  let out = "";
  let done = 0;
  let kept = 0;
  for (const m of text.matchAll(WORD)) {
    const word = fold(m[0]);
    if (
      leading.has(word) || langs.some((l) => isStopword(word, l) || isQuestionWord(word, l, 1))
    ) {
      out += text.slice(done, m.index);
      done = m.index + m[0].length;
    } else kept++;
  }
  return kept ? out + text.slice(done) : text;
}

const WORD = /[\p{L}\p{N}]+/gu;
