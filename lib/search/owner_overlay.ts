/**
 * The site search with the owner's answers (lib/store/owner_answers.ts) beside the static
 * index: a second, small engine built from them, rebuilt when they change (a KV version
 * read per search, so every isolate sees a new answer at once, without a redeploy). Each
 * answer is one FAQ entry: its title ends with the question, so the FAQ lift and the offline
 * model's FAQ answer apply, and its heading names the site team and the date for the citation.
 */
import type { OwnerAnswer, OwnerAnswers } from "@/lib/store/owner_answers.ts";
import type { SearchEngine } from "./engine.ts";
import type { Passage, SearchResult, SiteSearch, StoredPassage } from "./types.ts";

/** Who the citation names, per language. */
export const SITE_TEAM = { pt: "Equipe do site", en: "Site team" } as const;

/** The document id prefix of the answers' passages (`respostas/<id>#resposta`). */
export const OWNER_DOC_PREFIX = "respostas/";

/** The public page of an answer. */
export function ownerAnswerUrl(id: string): string {
  return `/respostas/${id}`;
}

/** The passage of an answer: "Site team (2026-12-04) › The question?". */
export function ownerAnswerPassage(a: OwnerAnswer): StoredPassage {
  const date = new Date(a.updatedAt).toISOString().slice(0, 10);
  const question = /\?\s*$/.test(a.question) ? a.question : `${a.question}?`;
  return {
    id: `${OWNER_DOC_PREFIX}${a.id}#resposta`,
    title: `${SITE_TEAM[a.lang]} (${date}) › ${question}`,
    url: ownerAnswerUrl(a.id),
    lang: a.lang,
    text: a.answer,
  };
}

interface Overlay {
  version: number;
  engine: SearchEngine | null;
  byId: Map<string, StoredPassage>;
}

/**
 * Merges the owner's hits into the static ones: an answer that holds at least as much of
 * the question as the best static passage goes first, scored above it (the offline model
 * quotes the top-scored passage); the rest of the static ranking follows.
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
  let overlay: Overlay = { version: 0, engine: null, byId: new Map() };
  let building: Promise<Overlay> | null = null;

  async function build(version: number): Promise<Overlay> {
    const list = await answers.list();
    const passages = list.map(ownerAnswerPassage);
    const byId = new Map(passages.map((p) => [p.id, p]));
    if (!passages.length) return { version, engine: null, byId };
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
    return { version, engine: new SearchEngine(data), byId };
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
      return mergeResults(result, hits.passages, k);
    },
    passage: (id) => overlay.byId.get(id) ?? base.passage(id),
    status: () => base.status(),
    ...(base.ready ? { ready: () => base.ready!() } : {}),
  };
}
