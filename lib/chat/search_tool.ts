/**
 * The `search_site` tool: the site search's numbered passages, each numbered
 * passage also announced to the client as a `source-url` part.
 */
import { tool, zodSchema } from "ai";
import { z } from "zod";
import type { SiteSearch } from "@/lib/search/types.ts";
import type { SearchToolOutput } from "./types.ts";

/** Name of the tool, shared with the offline model. */
export const SEARCH_TOOL = "search_site";

// Built once: the SDK turns a schema into JSON Schema lazily and caches it on the instance,
// so a module-level schema costs that conversion once instead of on every turn.
const SEARCH_INPUT = zodSchema(z.object({
  query: z.string().min(1).max(500).describe("What to look for, in the visitor's language"),
}));

/** Called for every numbered passage, to stream it as a source. */
export type OnSource = (source: { n: number; url: string; title: string }) => void;

/**
 * Builds the tool over `search`. Passage numbers stay stable within a turn: a
 * second search in the same turn continues the numbering, and a passage found
 * twice keeps its first number.
 */
export function createSearchTool(
  search: SiteSearch,
  options: { origin: string; onSource: OnSource; k?: number },
) {
  const numbers = new Map<string, number>();
  return tool({
    description:
      "Search the website's own content. Returns numbered passages with title and URL; cite them as [N].",
    inputSchema: SEARCH_INPUT,
    async execute({ query }, { abortSignal }): Promise<SearchToolOutput> {
      let result;
      try {
        result = await search.search(query, { k: options.k ?? 5, signal: abortSignal });
      } catch (error) {
        console.error("search_site failed:", error);
        return {
          mode: "unavailable",
          passages: [],
          note: "The site search is unavailable right now.",
        };
      }
      const passages = result.passages.map((p) => {
        if (p.url === null || p.n === undefined) {
          return { title: p.title, url: null, text: p.text, score: p.score };
        }
        let n = numbers.get(p.id);
        const url = new URL(p.url, options.origin).href;
        if (n === undefined) {
          n = numbers.size + 1;
          numbers.set(p.id, n);
          options.onSource({ n, url, title: p.title });
        }
        return { n, title: p.title, url, text: p.text, score: p.score };
      });
      return passages.length
        ? { mode: result.mode, passages }
        : { mode: result.mode, passages, note: "Nothing on the site matches this query." };
    },
  });
}
