/**
 * The site search with the owner's answers (lib/store/owner_answers.ts) beside the static
 * index: a second, small engine built from them, rebuilt when they change (a KV version
 * read per search, so every isolate sees a new answer at once, without a redeploy). Each
 * answer is one FAQ entry: its title ends with the question, so the FAQ lift and the offline
 * model's FAQ answer apply, and its heading names the site team and the date for the citation.
 */
import type { OwnerAnswer, OwnerAnswers } from "@/lib/store/owner_answers.ts";
import type { SearchEngine } from "./engine.ts";
import {
  currentPassage,
  type Passage,
  type SearchResult,
  type SiteSearch,
  type StoredPassage,
} from "./types.ts";
import { entryQuestion } from "@/lib/text/faq_heading.ts";

/** Who the citation names, per language. */
export const SITE_TEAM = { pt: "Equipe do site", en: "Site team" } as const;

/** The document id prefix of the answers' passages (`respostas/<id>#resposta`). */
export const OWNER_DOC_PREFIX = "respostas/";

/** The anchor of the passage of an answer given by a page of the site. */
const POINTER_ANCHOR = "#pagina";

/** The public page of an answer. */
export function ownerAnswerUrl(id: string): string {
  return `/respostas/${id}`;
}

/**
 * The passage of an answer: "Site team (2026-12-04) › The question?". A question answered with
 * a page of the site is searched as its own FAQ entry, the page's heading its text; a search
 * that finds it is given the page's passage instead (`pointedToPages`).
 */
export function ownerAnswerPassage(a: OwnerAnswer): StoredPassage {
  const date = new Date(a.updatedAt).toISOString().slice(0, 10);
  const question = /\?\s*$/.test(a.question) ? a.question : `${a.question}?`;
  return {
    id: `${OWNER_DOC_PREFIX}${a.id}${a.target ? POINTER_ANCHOR : "#resposta"}`,
    title: a.target ? question : `${SITE_TEAM[a.lang]} (${date}) › ${question}`,
    url: a.target ? a.target.url : ownerAnswerUrl(a.id),
    lang: a.lang,
    text: a.target ? entryQuestion(a.target.title) : a.answer,
  };
}

/** The passage id of each answer given by a page of the site, to that page's passage id. */
export function answerTargets(list: readonly OwnerAnswer[]): Map<string, string> {
  return new Map(
    list.flatMap((a) => a.target ? [[ownerAnswerPassage(a).id, a.target.id] as const] : []),
  );
}

const isPointer = (p: Passage) => p.id.endsWith(POINTER_ANCHOR);

/**
 * `hits` less the answers given by a page whose wording `query` is not alike to
 * (`POINTER_ALIKE`): the owner pointed that wording, not every question sharing words with it.
 * The analyzer is loaded on the first such hit, not at start.
 */
export async function alikeHits(query: string, hits: readonly Passage[]): Promise<Passage[]> {
  if (!hits.some(isPointer)) return [...hits];
  const { wordingOverlap } = await import("./question_overlap.ts");
  return hits.filter((p) =>
    !isPointer(p) || wordingOverlap(query, p.title, p.lang === "en" ? "en" : "pt") >= POINTER_ALIKE
  );
}

/**
 * `passages` with each answer given by a page replaced by that page's passage as the index
 * holds it now (`lookup`), its score and match kept: the visitor's wording found it, the page is
 * cited. Each page is listed once, at its first place; one no longer in the index (or that
 * cannot be read now) is left out. At most `k`.
 */
export async function pointedToPages(
  passages: readonly Passage[],
  targets: ReadonlyMap<string, string>,
  lookup: (id: string) => StoredPassage | null | Promise<StoredPassage | null>,
  k: number,
): Promise<Passage[]> {
  const out: Passage[] = [];
  const listed = new Set<string>();
  for (const hit of passages) {
    if (out.length >= k) break;
    const target = targets.get(hit.id);
    let passage: Passage | null = hit;
    if (target !== undefined) {
      const page = await Promise.resolve(lookup(target)).catch((error) => {
        console.error("The page an answer points to could not be read:", error);
        return null;
      });
      const { n, ...rest } = hit;
      passage = page && {
        ...rest,
        ...{ id: page.id, title: page.title, url: page.url, lang: page.lang, text: page.text },
        ...(page.url ? { n: n ?? 1 } : {}),
      };
    } else if (isPointer(hit)) {
      // An answer given by a page this isolate has not read the target of yet: never shown raw.
      passage = null;
    }
    if (!passage || listed.has(passage.id)) continue;
    listed.add(passage.id);
    out.push(passage);
  }
  return out;
}

interface Overlay {
  version: number;
  engine: SearchEngine | null;
  byId: Map<string, StoredPassage>;
  targets: Map<string, string>;
}

/**
 * Least likeness (lib/search/question_overlap.ts `termOverlap` of their terms) of a visitor's
 * question to the wording an answer given by a page was given for, for that answer to lift the
 * page (`alikeHits`). "tupla vs lista?", pointed to the entry on why both types exist, took
 * "Como converto uma lista em tupla?" from the entry on converting them (both words found, the
 * asking verb unknown to the answers: `match` 1).
 */
export const POINTER_ALIKE = 0.75;

/**
 * Merges the owner's hits into the static ones: an answer that holds at least as much of
 * the question as the best static passage goes first, scored above it (the offline model
 * quotes the top-scored passage); the rest of the static ranking follows. Answers given by a
 * page come through `alikeHits` first.
 */
export function mergeResults(base: SearchResult, own: Passage[], k: number): SearchResult {
  const bestMatch = Math.max(0, ...base.passages.map((p) => p.match ?? 0));
  const bestScore = Math.max(0, ...base.passages.map((p) => p.score));
  const lifted = own
    .filter((p) => (p.match ?? 0) >= bestMatch && (p.match ?? 0) > 0)
    .map((p) => ({ ...p, score: bestScore + 1 + p.score }));
  if (!lifted.length) return base;
  // The rest of the result (its mode, the language a translated question was read in) stays.
  return { ...base, passages: [...lifted, ...base.passages].slice(0, k) };
}

/** `base` with the owner's answers from `answers` searched beside it. */
export function withOwnerAnswers(base: SiteSearch, answers: OwnerAnswers): SiteSearch {
  let overlay: Overlay = { version: 0, engine: null, byId: new Map(), targets: new Map() };
  let building: Promise<Overlay> | null = null;

  async function build(version: number): Promise<Overlay> {
    const list = await answers.list();
    const passages = list.map(ownerAnswerPassage);
    const byId = new Map(passages.map((p) => [p.id, p]));
    const targets = answerTargets(list);
    if (!passages.length) return { version, engine: null, byId, targets };
    // Loaded on the first answer only: pages and a site without answers never pay for it.
    const [{ SearchEngine }, { buildIndexData }] = await Promise.all([
      import("./engine.ts"),
      import("./index_data.ts"),
    ]);
    const data = buildIndexData(passages.map((p) => ({
      ...p,
      docId: p.id.split("#")[0],
      lang: p.lang as "pt" | "en",
    })));
    return { version, engine: new SearchEngine(data), byId, targets };
  }

  async function current(): Promise<Overlay> {
    const version = await answers.version();
    if (version === overlay.version) return overlay;
    building ??= build(version).finally(() => building = null);
    overlay = await building;
    return overlay;
  }

  return {
    async search(query, options) {
      const k = options?.k ?? 5;
      const [result, own] = await Promise.all([
        base.search(query, options),
        current().catch((error) => {
          console.error("The owner's answers could not be searched:", error);
          return overlay;
        }),
      ]);
      if (!own.engine) return result;
      const hits = await own.engine.search(query, { k: Math.min(k, 3) });
      // Merged past `k`: a page an answer points to may also be among the static passages.
      const alike = await alikeHits(query, hits.passages);
      const merged = mergeResults(result, alike, k + alike.length);
      if (merged === result) return result;
      const lookup = (id: string) => currentPassage(base, id);
      return { ...merged, passages: await pointedToPages(merged.passages, own.targets, lookup, k) };
    },
    passage: (id) => overlay.byId.get(id) ?? base.passage(id),
    ...(base.storedPassage ? { storedPassage: (id) => base.storedPassage!(id) } : {}),
    status: () => base.status(),
    ...(base.ready ? { ready: () => base.ready!() } : {}),
  };
}
