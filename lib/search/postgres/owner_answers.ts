/**
 * The owner's answers (/admin/gaps) in the search database, when there is one: each answer is a
 * document of the same tables (`respostas/<id>`), ranked with the site's passages, so every
 * isolate finds it in the one index instead of building an engine of its own. The KV version of
 * the answers (one read per search, as the in-memory overlay does) says when they changed; the
 * first isolate to see a new version writes the change, the others find it written (the
 * content hash makes the copy idempotent).
 */
import type { OwnerAnswer, OwnerAnswers } from "@/lib/store/owner_answers.ts";
import {
  alikeHits,
  answerTargets,
  mergeResults,
  OWNER_DOC_PREFIX,
  ownerAnswerPassage,
  pointedToPages,
} from "../owner_overlay.ts";
import type { SiteSearch } from "../types.ts";
import type { PgDocument } from "./pg_index.ts";
import type { PgSiteSearch } from "./pg_search.ts";

/** The answers as documents of the search database. */
export function ownerDocuments(list: readonly OwnerAnswer[]): PgDocument[] {
  return list.map((a) => {
    const p = ownerAnswerPassage(a);
    const docId = p.id.split("#")[0];
    return {
      id: docId,
      contentHash: JSON.stringify([p.title, p.text, p.url]),
      url: p.url,
      lang: a.lang,
      passages: [{ ...p, docId, lang: a.lang }],
    };
  });
}

const isOwner = (id: string) => id.startsWith(OWNER_DOC_PREFIX);

/** How long a search waits for the answers' copy before it goes on without it, ms. */
const SYNC_WAIT_MS = 1_000;

/** `base` (the Postgres search) with the owner's answers copied into it and lifted as today. */
export function withPgOwnerAnswers(
  base: SiteSearch & Pick<PgSiteSearch, "syncDocuments" | "storedPassage">,
  answers: Pick<OwnerAnswers, "list" | "version">,
  options: { syncWaitMs?: number } = {},
): SiteSearch {
  const wait = options.syncWaitMs ?? SYNC_WAIT_MS;
  let synced: number | null = null;
  let targets = new Map<string, string>();
  let syncing: Promise<void> | null = null;
  async function sync(): Promise<void> {
    const version = await answers.version();
    // Version 0: no answer was ever written, nothing to copy.
    if (version === synced || version === 0) return;
    syncing ??= (async () => {
      const list = await answers.list();
      targets = answerTargets(list);
      await base.syncDocuments(ownerDocuments(list), OWNER_DOC_PREFIX);
      synced = version;
    })().finally(() => syncing = null);
    await syncing;
  }
  return {
    async search(query, options) {
      const k = options?.k ?? 5;
      // Bounded: a slow copy finishes in the background, the search does not wait for it.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        sync().catch((error) =>
          console.error("The owner's answers could not be written to the search database:", error)
        ),
        new Promise((resolve) => timer = setTimeout(resolve, wait)),
      ]);
      clearTimeout(timer);
      // A few more than asked: an answer just below the cut is still lifted when it holds the
      // question as well as the best passage does (lib/search/owner_overlay.ts).
      const result = await base.search(query, { ...options, k: k + 3 });
      // Answers given by a page, for questions not alike to their wording, are left out
      // where they rank too: the page keeps its own place.
      const found = await alikeHits(query, result.passages);
      const own = found.filter((p) => isOwner(p.id)).slice(0, 3);
      const rest = { ...result, passages: found.filter((p) => !isOwner(p.id)) };
      const merged = mergeResults(rest, own, k + own.length);
      const ranked = merged === rest ? { ...result, passages: found } : merged;
      const lookup = (id: string) => base.storedPassage(id);
      return { ...ranked, passages: await pointedToPages(ranked.passages, targets, lookup, k) };
    },
    passage: (id) => base.passage(id),
    storedPassage: (id) => base.storedPassage(id),
    status: () => base.status(),
    ...(base.ready ? { ready: () => base.ready!() } : {}),
  };
}
