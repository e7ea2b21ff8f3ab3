/**
 * The questions the site team dismissed on /admin/gaps as no subject of the site ("Vocês entregam
 * pizza?" on a software FAQ): a visitor's question alike to one, as alike as a taught wording must
 * be to lift its page (`POINTER_ALIKE`, a typo repaired), finds nothing, so every model says the
 * site does not cover it instead of quoting the page whose words it happened to share.
 */
import type { SearchResult, SiteSearch } from "./types.ts";
import { POINTER_ALIKE } from "./owner_overlay.ts";

/** Where the dismissed questions are read: a version that changes with them, and the list. */
export interface DismissedQuestions {
  version(): Promise<number>;
  list(): Promise<ReadonlyArray<{ question: string; lang: "pt" | "en" }>>;
}

/** The dismissed questions as compared: their terms, indexed by term and language. */
interface Compared {
  version: number;
  items: Array<{ question: string; lang: "pt" | "en"; terms: Set<string> }>;
  byTerm: Map<string, number[]>;
}

/** `base`, finding nothing for a question alike to one the team dismissed. */
export function withDismissedQuestions(
  base: SiteSearch,
  dismissed: DismissedQuestions,
): SiteSearch {
  let compared: Compared = { version: 0, items: [], byTerm: new Map() };
  let building: Promise<Compared> | null = null;

  async function current(): Promise<Compared> {
    const version = await dismissed.version();
    if (version === compared.version) return compared;
    building ??= (async () => {
      const { questionTerms } = await import("./question_overlap.ts");
      const items = (await dismissed.list()).map((d) => ({
        ...d,
        terms: questionTerms(d.question, d.lang),
      }));
      const byTerm = new Map<string, number[]>();
      items.forEach((d, i) => {
        for (const t of d.terms) {
          byTerm.set(`${d.lang}:${t}`, [...byTerm.get(`${d.lang}:${t}`) ?? [], i]);
        }
      });
      return { version, items, byTerm };
    })().finally(() => building = null);
    compared = await building;
    return compared;
  }

  async function isDismissed(query: string): Promise<boolean> {
    const { items, byTerm } = await current();
    if (!items.length) return false;
    const { questionTerms, termOverlap, wordingOverlap } = await import("./question_overlap.ts");
    for (const lang of ["pt", "en"] as const) {
      const asked = questionTerms(query, lang);
      const sharing = new Set([...asked].flatMap((t) => byTerm.get(`${lang}:${t}`) ?? []));
      for (const i of sharing) {
        const d = items[i];
        // The Jaccard index first; the typo repair only when it could lift it past the bar.
        const overlap = termOverlap(asked, d.terms);
        if (overlap >= POINTER_ALIKE) return true;
        if (overlap >= 0.25 && wordingOverlap(query, d.question, lang) >= POINTER_ALIKE) {
          return true;
        }
      }
    }
    return false;
  }

  return {
    async search(query, options): Promise<SearchResult> {
      const [result, dismissedHere] = await Promise.all([
        base.search(query, options),
        isDismissed(query).catch((error) => {
          console.error("The dismissed questions could not be read:", error);
          return false;
        }),
      ]);
      return dismissedHere ? { ...result, passages: [] } : result;
    },
    passage: (id) => base.passage(id),
    ...(base.storedPassage ? { storedPassage: (id) => base.storedPassage!(id) } : {}),
    status: () => base.status(),
    ...(base.ready ? { ready: () => base.ready!() } : {}),
  };
}
