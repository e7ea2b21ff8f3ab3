/**
 * Courtesy around a visitor's question, in Portuguese and English: greetings (the assistant
 * addressed by name too), thanks, "please", goodbyes, what announces the question ("Gostaria
 * de saber:", "Quick question:", "Então,"), laughter after it ("kkkk") and closings ("Obrigado
 * desde já!", "Alguém sabe?"). A search for "Hey, good morning, how do I copy an object?" must
 * read "how do I copy an object?": the greeting's words are on no page, so they weigh as
 * the rarest words there are and the "not covered" gate refuses a question the site
 * answers. A message that is courtesy and nothing else ("Oi, tudo certo por aí?") is small
 * talk, answered as such rather than with whatever page shares a word with it.
 *
 * The phrases are the languages' closed class of courtesy formulas, not any site's words.
 */

/** A language of the courtesy phrases (the same pair as the offline model's answers). */
export type CourtesyLang = "pt" | "en";

/**
 * What a message made only of courtesy says. "ack" takes an answer in ("Ok", "Entendi",
 * "Got it"); "self" asks what the assistant can do; "who"
 * asks who "you" are, which on a company's site may mean the company (its About page).
 */
export type SmallTalkKind = "greeting" | "thanks" | "bye" | "ack" | "self" | "who";

/** A message that is courtesy only: its kind, and its language when its phrases tell. */
export interface SmallTalk {
  kind: SmallTalkKind;
  lang: CourtesyLang | null;
}

interface Phrase {
  words: readonly string[];
  kind: SmallTalkKind | "please" | "filler" | "request" | "laugh" | "appeal";
  lang: CourtesyLang | null;
  /**
   * Whether the phrase also has an ordinary sense ("tudo bem usar…?", "salve o arquivo"):
   * then it is courtesy only when a pause or the message's end follows it.
   */
  ambiguous: boolean;
}

/** `kind`, `lang`, then phrases separated by "|"; a leading "~" marks an ambiguous phrase. */
const TABLE: ReadonlyArray<readonly [Phrase["kind"], CourtesyLang | null, string]> = [
  ["greeting", "pt", "oi|oie|oii|ola|opa|alo|bom dia|boa tarde|boa noite|~salve|~e ai|~eai|~eae"],
  ["greeting", "pt", "~tudo bem|~tudo bom|~tudo certo|~tudo joia|~tudo tranquilo|~beleza|~blz"],
  ["greeting", "pt", "~como vai|~como voce esta|~como vc esta|~como vao as coisas"],
  ["greeting", "en", "hi|hello|hey|hiya|howdy|good morning|good afternoon|good evening|greetings"],
  ["greeting", "en", "~how are you|~how are you doing|~how's it going|~how is it going"],
  ["greeting", "en", "~what's up|~whats up|~sup|~yo"],
  ["greeting", "pt", "espero que esteja bem|espero que estejam bem|espero que esteja tudo bem"],
  ["greeting", "en", "hope you are well|hope you're well|hope you're doing well|hope all is well"],
  ["greeting", "en", "hope you are doing well|hope this finds you well|hope you are doing good"],
  ["greeting", "pt", "fala galera|fala pessoal|fala ai|prezados|prezadas|prezado|prezada|~cara"],
  ["thanks", "pt", "obrigado|obrigada|obg|brigado|brigada|valeu|vlw|agradeco|~grato|~grata"],
  ["thanks", "en", "thanks|thank you|thx|ty|cheers|much appreciated"],
  ["thanks", "pt", "obrigado desde ja|desde ja obrigado|desde ja agradeco|agradeco desde ja"],
  ["thanks", "pt", "agradeco a ajuda|obrigado pela ajuda|obrigada pela ajuda|grato pela ajuda"],
  ["thanks", "pt", "abracos|abraco|abs|att|atenciosamente|bjs|beijos|agradecido|agradecida"],
  ["thanks", "en", "thanks in advance|thank you in advance|tia|thanks for your help|regards"],
  ["thanks", "en", "thanks for the help|thank you for your help|appreciate it|best regards"],
  ["thanks", "en", "appreciate any help|any help appreciated|cheers mate"],
  // Asking anyone at all, as a sentence of its own after the question ("…? Alguém sabe?").
  ["appeal", "pt", "alguem sabe|alguem|alguem ai|alguem pode ajudar|alguma ideia|ideias"],
  ["appeal", "en", "anyone|anyone know|anybody|any ideas|ideas|any help|can anyone help"],
  ["bye", "pt", "tchau|ate mais|ate logo|ate a proxima|falou|flw"],
  // "Legal" is also "lawful", "certo" also "right/correct": those need a pause after them.
  ["ack", null, "ok|okay"],
  ["ack", "pt", "~certo|~entendi|~perfeito|~otimo|~legal|~show|~massa|~era isso"],
  ["ack", "pt", "~ajudou|~faz sentido|~entendido|~combinado"],
  ["ack", "en", "~got it|~perfect|~great|~cool|~nice|~awesome|~makes sense|~that helps"],
  ["ack", "en", "~that's it|~i see|~understood|~alright|~all right|~that helped"],
  ["bye", "en", "bye|goodbye|bye bye|see you|see ya"],
  // Questions to the assistant about itself, courtesy only when nothing follows them ("o que
  // você faz com meus dados?" asks about the site).
  ["self", "pt", "~o que voce sabe fazer|~o que voce pode fazer|~o que voce consegue fazer"],
  ["self", "pt", "~voce e um robo|~voce e um bot|~voce e humano|~voce e uma pessoa|~voce e real"],
  ["self", "pt", "~como voce pode me ajudar|~em que voce pode me ajudar|~voce pode me ajudar"],
  ["self", "en", "~what can you do|~how can you help|~how can you help me|~can you help me"],
  ["self", "en", "~are you a bot|~are you a robot|~are you human|~are you a human|~are you real"],
  ["self", "en", "~are you a real person"],
  ["who", "pt", "~quem e voce|~quem e vc|~o que e voce|~o que voce faz|~o que vc faz"],
  ["who", "en", "~who are you|~what are you|~what do you do"],
  // Asking to ask ("Gostaria de saber: …", "Quick question: …", "Can you tell me …"): what
  // follows is the question. Alone, the message asks nothing yet, as a greeting.
  ["request", "pt", "gostaria de saber|queria saber|quero saber|preciso saber|me diz|me diga"],
  ["request", "pt", "gostaria de perguntar|queria perguntar|uma duvida|tenho uma duvida|me fala"],
  ["request", "pt", "uma pergunta|tenho uma pergunta|pergunta rapida|duvida rapida|me explica"],
  ["request", "pt", "me explique|me explica uma coisa|pode me dizer|podem me dizer|alguem sabe"],
  ["request", "pt", "voce pode me dizer|voces podem me dizer|sabe me dizer|sabem me dizer"],
  ["request", "pt", "me diz uma coisa|me fala uma coisa|me tira uma duvida|tira uma duvida"],
  ["request", "pt", "preciso de ajuda|preciso de uma ajuda|preciso de uma ajudinha"],
  ["request", "pt", "~pergunta|~duvida|mais uma pergunta|outra pergunta|outra duvida"],
  ["request", "pt", "mais uma duvida|alguem pode me ajudar|alguem me ajuda|alguem pode ajudar"],
  [
    "request",
    "pt",
    "alguem sabe me dizer|alguem sabe dizer|alguem sabe me explicar|sabe me explicar",
  ],
  [
    "request",
    "pt",
    "pode me explicar|podem me explicar|voce pode me explicar|alguem pode explicar",
  ],
  [
    "request",
    "en",
    "can someone explain|can anyone explain|could anyone explain|can you explain to me",
  ],
  ["request", "en", "another question|one more question|one more thing|can someone help"],
  ["request", "en", "can anyone help|can someone help me|can anyone help me|could someone help"],
  // A word that only opens what follows, before a pause ("Então, …", "Well, …").
  ["request", null, "~entao|~enfim|~bom|~bem|~well|~so|~now|~anyway"],
  ["request", "en", "i need help|need help|i need some help|need some help"],
  // A cry for help before a pause ("Socorro! …", "Help! …", "Me ajuda: …").
  ["request", "pt", "~socorro|~me ajuda|~me ajudem|~ajuda|~ajudinha"],
  ["request", "en", "~help|~help me|~please help|~pls help|~urgent"],
  ["request", "en", "i'd like to know|i would like to know|i want to know|i wanted to know"],
  ["request", "en", "i was wondering|i wonder|quick question|i have a question|~question"],
  ["request", "en", "~quick q"],
  ["request", "en", "i've got a question|can you tell me|could you tell me|can you explain"],
  ["request", "en", "could you explain|do you know|does anyone know|anyone know|tell me"],
  // Asking whether anyone knows: "Vocês sabem por que…?", "Any idea why…?".
  ["request", "pt", "voce sabe|voces sabem|vc sabe|vcs sabem|alguem ai sabe|alguem saberia"],
  ["request", "pt", "sera que alguem sabe|sera que voce sabe|sera que voces sabem|voce saberia"],
  ["request", "en", "any idea|does somebody know|does anybody know|anybody know|somebody know"],
  ["request", "en", "do you guys know|would anyone know|does anyone here know|do any of you know"],
  ["please", "pt", "por favor|por gentileza|pfv|pfvr"],
  ["please", "en", "please|pls|plz"],
  // Words that ride along with courtesy ("hi there", "muito obrigado", "por aí") and mean
  // nothing without it: they count only in a run with another courtesy phrase.
  ["filler", null, "there|all|everyone|folks|guys|so much|a lot|again|very much|you|too|today"],
  ["filler", null, "team|all of you|a todos|a todas|todos|todas"],
  ["filler", null, "muito|mesmo|pessoal|gente|galera|ai|por ai|com voce|com vc|pra voce|voce|hoje"],
  // The assistant addressed by name ("Oi assistente, …", "Hey bot, …"): on no site's pages.
  // Alone before a pause it opens the message as a greeting does ("Assistente, como…?").
  ["greeting", null, "~assistente|~bot|~robo|~chatbot|~assistant|~robot"],
  ["filler", null, "assistente|bot|robo|robozinho|chatbot|assistant|robot|ia"],
];

const PHRASES: readonly Phrase[] = TABLE.flatMap(([kind, lang, list]) =>
  list.split("|").map((p): Phrase => ({
    words: p.replace(/^~/, "").split(" "),
    kind,
    lang,
    ambiguous: p.startsWith("~"),
  }))
);

/**
 * Most phrases of one run of courtesy, and most words of the courtesy that closes a message:
 * courtesy is short, and a message of a thousand "oi" must cost no more than a short one.
 */
const MAX_RUN = 12;
const MAX_TAIL = 8;

/** A word of the message and where it sits. */
interface Word {
  text: string;
  start: number;
  end: number;
}

/** The message's words, lowercased and without accents, with their offsets. */
function wordsOf(message: string): Word[] {
  return [...message.matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu)].map((m) => ({
    text: m[0].normalize("NFD").replace(/\p{M}/gu, "").toLowerCase(),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** Whether a pause (punctuation) or the end of the message follows offset `end`. */
function pauseAfter(message: string, end: number): boolean {
  // A short window, not the rest of the message: this runs for many words of a long one.
  const rest = message.slice(end, end + PAUSE_WINDOW);
  if (end + PAUSE_WINDOW < message.length && !rest.trim()) return false;
  // A hyphen inside a word ("Bem-vindo", "So-called") joins, it does not pause.
  return /^\s*([,.!?;:…)]|-(?!\p{L})|$)/u.test(rest);
}

/** How far after a word a pause is looked for. */
const PAUSE_WINDOW = 64;

/**
 * Whether the courtesy ends before word `i`: a pause or the message's end follows word
 * `i - 1`, or a filler does that is followed by one ("tudo certo por aí?").
 */
function pausesAt(message: string, words: readonly Word[], i: number): boolean {
  if (pauseAfter(message, words[i - 1].end)) return true;
  return PHRASES.some((p) =>
    p.kind === "filler" && p.words.every((w, k) => words[i + k]?.text === w) &&
    pauseAfter(message, words[i + p.words.length - 1].end)
  );
}

/**
 * Laughter typed as a word ("kkkk", "rsrs", "hahaha", "lol"): it has any length, so it is
 * matched by its shape, not listed.
 */
const LAUGH =
  /^(?:k{3,}|(?:rs)+|(?:ha){2,}h?|(?:ah){2,}|(?:he){2,}h?|(?:hu){2,}|lol|lmao|rofl|xd)$/;

/** A greeting typed with its letters drawn out ("oiii", "olaaa", "heyyy", "hiii"). */
const DRAWN_GREETING: ReadonlyArray<readonly [RegExp, CourtesyLang]> = [
  [/^(?:o+i+e*|o+l+a+|e+a+e+|i+a+e+)$/, "pt"],
  [/^(?:h+i+|h+e+y+|h+e+l+o+)$/, "en"],
];

/** "Hello world", "Olá mundo": a program's first words, not a greeting. */
const HELLO_WORLD = new Set(["world", "mundo"]);

/**
 * The longest courtesy phrase starting at word `i`; an appeal to anyone ("Alguém sabe?") only
 * where `appeals` allows it, after the question: opening one ("Ideias para o projeto?") it is
 * the question.
 */
function phraseAt(
  message: string,
  words: readonly Word[],
  i: number,
  appeals: boolean,
): Phrase | null {
  if (words[i] && LAUGH.test(words[i].text)) {
    return { words: [words[i].text], kind: "laugh", lang: null, ambiguous: false };
  }
  if (words[i] && HELLO_WORLD.has(words[i + 1]?.text)) return null;
  const drawn = words[i] && DRAWN_GREETING.find(([shape]) => shape.test(words[i].text));
  if (drawn) return { words: [words[i].text], kind: "greeting", lang: drawn[1], ambiguous: false };
  let best: Phrase | null = null;
  for (const p of PHRASES) {
    if (best && best.words.length >= p.words.length) continue;
    if (p.kind === "appeal" && !appeals) continue;
    if (!p.words.every((w, k) => words[i + k]?.text === w)) continue;
    if (p.ambiguous && !pausesAt(message, words, i + p.words.length)) continue;
    best = p;
  }
  return best;
}

/**
 * The run of courtesy phrases from word `from`: the phrases and the index after them. A run
 * of fillers alone ("você", "all") is no courtesy, so it counts only with another phrase.
 */
function courtesyRun(message: string, words: readonly Word[], from: number, appeals = false) {
  const found: Phrase[] = [];
  let i = from;
  for (
    let p = phraseAt(message, words, i, appeals);
    p && found.length < MAX_RUN;
    p = phraseAt(message, words, i, appeals)
  ) {
    found.push(p);
    i += p.words.length;
  }
  return found.some((p) => p.kind !== "filler") ? { found, next: i } : { found: [], next: from };
}

/**
 * Whether the message is courtesy and nothing else ("Oi, tudo certo por aí?", "Thanks a
 * lot!"), and what it says; null when it asks or says anything more.
 */
export function smallTalk(message: string): SmallTalk | null {
  const words = wordsOf(message);
  const { found, next } = courtesyRun(message, words, 0, true);
  if (!found.length || next < words.length) return null;
  const kinds = new Set(found.map((p) => p.kind));
  const kind: SmallTalkKind = kinds.has("self")
    ? "self"
    : kinds.has("who")
    ? "who"
    : kinds.has("thanks")
    ? "thanks"
    : kinds.has("bye")
    ? "bye"
    : kinds.has("ack") || [...kinds].every((k) => k === "laugh" || k === "filler")
    ? "ack"
    : "greeting";
  const langs = new Set(found.map((p) => p.lang).filter((l) => l !== null));
  return { kind, lang: langs.size === 1 ? [...langs][0] : null };
}

/**
 * Whether the message asks nothing at all: a greeting, thanks, a goodbye or an "ok". Questions
 * about the assistant ("O que você sabe fazer?", "Quem é você?") do ask something.
 */
export function asksNothing(message: string): boolean {
  const kind = smallTalk(message)?.kind;
  return kind !== undefined && kind !== "self" && kind !== "who";
}

/** Where the courtesy that closes the message (thanks, please, goodbyes) begins. */
function trailingStart(message: string, words: readonly Word[], from: number): number {
  for (let j = Math.max(from + 1, words.length - MAX_TAIL); j < words.length; j++) {
    const { found, next } = courtesyRun(message, words, j, true);
    const closing = found.every((p) =>
      p.kind === "thanks" || p.kind === "bye" || p.kind === "please" || p.kind === "filler" ||
      p.kind === "laugh" || p.kind === "appeal"
    );
    // An appeal to anyone is courtesy only as a sentence of its own: "Para quem envio? Alguém
    // sabe?" drops it, "Como envio para alguém?" keeps its "alguém".
    const appeal = found.some((p) => p.kind === "appeal");
    const ownSentence = /[?!.…]\s*$/u.test(message.slice(0, words[j].start));
    if (next === words.length && closing && (!appeal || ownSentence)) {
      return j;
    }
  }
  return words.length;
}

/**
 * The message without the courtesy around its question: greetings and thanks at its start,
 * thanks, "please" and goodbyes at its end, and "please" / "por favor" anywhere. The
 * message itself when it is small talk only (see {@linkcode smallTalk}) or has no courtesy.
 *
 * @example
 * ```ts
 * withoutCourtesy("Hey, good morning, how do I copy an object?"); // "how do I copy an object?"
 * ```
 */
export function withoutCourtesy(message: string): string {
  const words = wordsOf(message);
  const { next: first } = courtesyRun(message, words, 0);
  if (first >= words.length) return message;
  const end = trailingStart(message, words, first);
  // What is not courtesy stays as written, punctuation and all ("?!" included).
  const start = first > 0 ? words[first].start : 0;
  const last = words[end - 1];
  const body = end < words.length
    ? message.slice(start, last.end) + trailingMark(message.slice(last.end))
    : message.slice(start);
  return withoutPlease(body);
}

const PLEASE = /(?<![\p{L}\p{N}])(?:por favor|por gentileza|please)(?![\p{L}\p{N}])/giu;

/**
 * `text` without "please" / "por favor" and the commas around it. Split and trimmed piece by
 * piece rather than one pattern with `\s*` around the phrase, which would retry from every
 * position of a long run of spaces (quadratic on visitor text).
 */
function withoutPlease(text: string): string {
  const pieces = text.split(PLEASE);
  if (pieces.length === 1) return text.trim();
  let out = "";
  pieces.forEach((piece, i) => {
    let part = piece;
    if (i > 0) part = trimPause(part, "start");
    if (i < pieces.length - 1) part = trimPause(part, "end");
    if (!part) return;
    // "…objeto, por favor?": the question mark closes what came before the phrase.
    out += out && !/^[?!.]/u.test(part) ? " " + part : part;
  });
  return out.trim();
}

/** `text` without spaces and commas at one end, by an index scan. */
function trimPause(text: string, side: "start" | "end"): string {
  const pause = (c: string) => c === "," || c.trim() === "";
  let start = 0;
  let end = text.length;
  if (side === "start") { while (start < end && pause(text[start])) start++; }
  else while (end > start && pause(text[end - 1])) end--;
  return text.slice(start, end);
}

/** The question mark the dropped courtesy held ("…objeto, por favor?"), if any. */
function trailingMark(rest: string): string {
  return rest.includes("?") ? "?" : "";
}
