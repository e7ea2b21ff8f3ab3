/**
 * The answers the site owner writes to questions the site did not cover (/admin/gaps). They
 * are public pages at /respostas/<id> and the live search overlay indexes them
 * (lib/search/owner_overlay.ts).
 *
 *   ["owner_answers", id] → OwnerAnswer
 *   ["owner_answers_version"] → number   (bumped by every write: the overlay rebuilds on change)
 */

/** One answer by the site team. */
export interface OwnerAnswer {
  id: string;
  question: string;
  /** The answer the team wrote; empty for a question answered with a page (`target`). */
  answer: string;
  lang: "pt" | "en";
  /**
   * A passage of the site that answers the question: the visitors' wording is then searched
   * as that passage's (lib/search/owner_overlay.ts), which is cited as it is on the site.
   */
  target?: AnswerTarget;
  createdAt: number;
  updatedAt: number;
}

/** The site passage a question is answered with, as it was when the owner picked it. */
export interface AnswerTarget {
  /** The passage id (`<docId>#<anchor>`), resolved in the live index on every search. */
  id: string;
  title: string;
  url: string;
}

/** What the owner sends to create or edit an answer. */
export type OwnerAnswerInput = Pick<OwnerAnswer, "question" | "answer" | "lang" | "target">;

/** Limits of an answer: KV values stay small and the overlay stays a small index. */
export const OWNER_ANSWER_LIMITS = { question: 300, answer: 4000, count: 500 } as const;

/** The id format: 12 lowercase letters and digits. */
export const OWNER_ANSWER_ID = /^[a-z0-9]{12}$/;

const VERSION_KEY = ["owner_answers_version"];

/** What the owner must correct; /admin/gaps says it in the owner's language (lib/i18n/gaps.ts). */
export type OwnerAnswerProblem =
  | { kind: "question"; max: number }
  | { kind: "answer"; max: number }
  | { kind: "lang" }
  | { kind: "full"; max: number }
  | { kind: "pageTitle"; max: number }
  | { kind: "pageUnmatched"; words: string }
  | { kind: "pageGone" }
  | { kind: "dismissalsFull"; max: number }
  | { kind: "answerRemoved" };

const PROBLEM_TEXT: { [K in OwnerAnswerProblem["kind"]]: string } = {
  question: "Write the question in 1 to {max} characters.",
  answer: "Write the answer in 1 to {max} characters.",
  lang: 'Pick the answer\'s language: "pt" or "en".',
  full: "There are {max} answers already: remove one first.",
  pageTitle: "Write the title or the question of the page in 1 to {max} characters.",
  pageUnmatched:
    'Nothing on the site matches "{words}": write the title or the question of the page.',
  pageGone: "That page is not in the site's index any more: pick another, or write its title.",
  dismissalsFull: "There are {max} dismissed groups already: restore one first.",
  answerRemoved: "That answer was removed meanwhile: send it again to save it as a new one.",
};

/** Thrown for input the owner must correct; its message says how, in English. */
export class OwnerAnswerInputError extends Error {
  constructor(readonly problem: OwnerAnswerProblem) {
    super(
      PROBLEM_TEXT[problem.kind].replace(
        /\{(\w+)\}/g,
        (_, k) => String((problem as Record<string, unknown>)[k]),
      ),
    );
  }
}

/**
 * Checks and trims what the owner sent; throws OwnerAnswerInputError naming the fix. A question
 * answered with a page of the site (`target`) has no text of its own.
 */
export function checkOwnerAnswer(input: {
  question?: string | null;
  answer?: string | null;
  lang?: string | null;
  target?: AnswerTarget;
}): OwnerAnswerInput {
  const question = (input.question ?? "").trim();
  const answer = input.target ? "" : (input.answer ?? "").trim();
  const { question: maxQ, answer: maxA } = OWNER_ANSWER_LIMITS;
  if (!question || question.length > maxQ) {
    throw new OwnerAnswerInputError({ kind: "question", max: maxQ });
  }
  if (!input.target && (!answer || answer.length > maxA)) {
    throw new OwnerAnswerInputError({ kind: "answer", max: maxA });
  }
  if (input.lang !== "pt" && input.lang !== "en") {
    throw new OwnerAnswerInputError({ kind: "lang" });
  }
  return { question, answer, lang: input.lang, ...(input.target ? { target: input.target } : {}) };
}

function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
}

/** The owner's answers over `kv`. */
export function createOwnerAnswers(kv: Deno.Kv, clock: () => number = Date.now) {
  async function all(): Promise<OwnerAnswer[]> {
    const out: OwnerAnswer[] = [];
    const limit = OWNER_ANSWER_LIMITS.count;
    for await (const e of kv.list<OwnerAnswer>({ prefix: ["owner_answers"] }, { limit })) {
      out.push(e.value);
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }
  async function bump(op: Deno.AtomicOperation): Promise<boolean> {
    const version = await kv.get<number>(VERSION_KEY);
    const done = await op.check(version).set(VERSION_KEY, (version.value ?? 0) + 1).commit();
    return done.ok;
  }
  /**
   * Creates an answer unless the same one exists (a double submit, or the same pick from two
   * tabs): that one is returned. The version is read before the list, so a write landing in
   * between fails the commit and the check runs again: neither a twin nor a 501st slips in.
   */
  async function create(input: OwnerAnswerInput, now: number): Promise<OwnerAnswer> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const version = await kv.get<number>(VERSION_KEY);
      const existing = await all();
      const twin = existing.find((a) => sameAnswer(a, input));
      if (twin) return twin;
      if (existing.length >= OWNER_ANSWER_LIMITS.count) {
        throw new OwnerAnswerInputError({ kind: "full", max: OWNER_ANSWER_LIMITS.count });
      }
      const saved: OwnerAnswer = { ...input, id: newId(), createdAt: now, updatedAt: now };
      const done = await kv.atomic().check(version)
        .check({ key: ["owner_answers", saved.id], versionstamp: null })
        .set(["owner_answers", saved.id], saved)
        .set(VERSION_KEY, (version.value ?? 0) + 1)
        .commit();
      if (done.ok) return saved;
    }
    throw new Error("Saving the answer lost every race with other writes: try again.");
  }
  return {
    /** Every answer, newest edit first. */
    list: all,
    /** The answer with this id, or null. */
    async get(id: string): Promise<OwnerAnswer | null> {
      if (!OWNER_ANSWER_ID.test(id)) return null;
      return (await kv.get<OwnerAnswer>(["owner_answers", id])).value;
    },
    /** The version that changes with every write (the overlay's cache key). */
    async version(): Promise<number> {
      return (await kv.get<number>(VERSION_KEY)).value ?? 0;
    },
    /** Creates an answer, or with `id` edits it; null when `id` names no answer. */
    async save(input: OwnerAnswerInput, id?: string): Promise<OwnerAnswer | null> {
      const now = clock();
      if (!id) return await create(input, now);
      for (let attempt = 0; attempt < 8; attempt++) {
        const key = ["owner_answers", id];
        const old = await kv.get<OwnerAnswer>(key);
        if (!old.value) return null;
        const saved: OwnerAnswer = { ...input, id, createdAt: old.value.createdAt, updatedAt: now };
        if (await bump(kv.atomic().check(old).set(key, saved))) return saved;
      }
      throw new Error("Saving the answer lost every race with other writes: try again.");
    },
    /** Removes an answer; false when there was none. */
    async remove(id: string): Promise<boolean> {
      if (!OWNER_ANSWER_ID.test(id)) return false;
      for (let attempt = 0; attempt < 8; attempt++) {
        const old = await kv.get<OwnerAnswer>(["owner_answers", id]);
        if (!old.value) return false;
        if (await bump(kv.atomic().check(old).delete(old.key))) return true;
      }
      throw new Error("Removing the answer lost every race with other writes: try again.");
    },
  };
}

/** The store of owner answers. */
export type OwnerAnswers = ReturnType<typeof createOwnerAnswers>;

/** A question as compared for twins: case and spacing aside. */
export function plainQuestion(question: string): string {
  return question.toLocaleLowerCase().replace(/\s+/g, " ").trim();
}

/** The same answer: question (but for case and spacing), language, and text or page. */
function sameAnswer(a: OwnerAnswer, b: OwnerAnswerInput): boolean {
  return plainQuestion(a.question) === plainQuestion(b.question) && a.lang === b.lang &&
    a.answer === b.answer && a.target?.id === b.target?.id;
}
