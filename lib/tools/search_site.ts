/**
 * The `search_site` tool: the site search's numbered passages, each numbered
 * passage also announced to the client as a `source-url` part.
 *
 * Passages of internal documents (no public URL) have two views. What the tool
 * returns — streamed to the browser and saved in KV — holds only a reference to
 * each of them; what the model is shown (`toModelOutput`) holds their text,
 * looked up in the server's index. The text of an internal document never
 * leaves the server.
 *
 * A passage URL becomes a source link only when it is an http(s) URL of the
 * site's own origins (a root-relative path, `origin`, `siteOrigins`): a
 * manifest edited by hand can hold anything. A passage whose URL is refused
 * is treated like an internal one, with no number and no URL.
 */
import type { JSONValue } from "ai";
import { tool, zodSchema } from "ai";
import { z } from "zod";
import type { Passage, SiteSearch } from "@/lib/search/types.ts";
import type {
  InternalPassageRef,
  PublicPassage,
  RelatedEntry,
  SearchToolOutput,
} from "@/lib/protocol/ui_message.ts";
import { sourceLink } from "@/lib/text/source_link.ts";
import { entryQuestion, isFaqEntry } from "@/lib/text/faq_heading.ts";
import { contentTerms, questionTerms } from "@/lib/models/terms.ts";

/** Name of the tool, shared with the offline model. */
export const SEARCH_TOOL = "search_site";

// Built once: the SDK turns a schema into JSON Schema lazily and caches it on the instance,
// so a module-level schema costs that conversion once instead of on every turn.
const SEARCH_INPUT = zodSchema(z.object({
  query: z.string().min(1).max(500).describe("What to look for, in the visitor's language"),
}));

/** Told to the model in place of an internal passage the index no longer has. */
export const MISSING_INTERNAL_NOTE = "This internal passage is no longer in the site index.";

/** A passage the search numbered: what the turn streams as a `source-url` part. */
export interface NumberedSource {
  n: number;
  url: string;
  title: string;
}

/**
 * The numbered passages of a search output, in order: the turn's sources, read from the
 * output itself (internal passages have no number and are never sources).
 */
export function numberedSources(output: unknown): NumberedSource[] {
  if (!isObject(output) || !Array.isArray(output.passages)) return [];
  return output.passages.flatMap((p: unknown) =>
    isObject(p) && typeof p.n === "number" && typeof p.url === "string"
      ? [{ n: p.n, url: p.url, title: String(p.title ?? "") }]
      : []
  );
}

/**
 * Least share of the query's weight a section's own heading holds for the section to be
 * offered as a related question (`Passage.heading`): half the question. A single shared word
 * is not enough for a section, as it is for an FAQ entry: the site's own name ("assistente")
 * is in nearly every heading. At 0.4 "What database does it run on?" was offered "What runs
 * right away and what waits for you".
 */
export const RELATED_HEADING_SHARE = 0.5;

/**
 * Whether a passage found for `query` may be offered under the answer as a related question
 * (lib/text/related_questions.ts): an FAQ entry whose own question holds one of the query's
 * words, or a section whose heading holds half the query's weight. An entry found by its
 * answer's words alone ("O que é um artefato?" for a question about the cookie) reads as
 * unrelated to the visitor, however much of the query its text holds.
 */
function relatedEntryTest(query: string): (p: Passage) => boolean {
  const asked = questionTerms(query);
  return ({ title, heading }) => {
    if (!isFaqEntry(title)) return heading !== undefined && heading >= RELATED_HEADING_SHARE;
    for (const term of contentTerms(entryQuestion(title))) if (asked.has(term)) return true;
    return false;
  };
}

/** How many passages past those shown a search reads for related questions. */
const RELATED_DEPTH = 5;

/** Options of {@linkcode createSearchTool}. */
export interface SearchToolOptions {
  /** Origin that makes passage URLs absolute. */
  origin: string;
  /** Other origins of the site whose absolute URLs may be source links (`allowedOrigins`). */
  siteOrigins?: readonly string[];
  /** Passages per search (default 5). */
  k?: number;
}

/**
 * Builds the tool over `search`. Passage numbers stay stable within a turn: a
 * second search in the same turn continues the numbering, and a passage found
 * twice keeps its first number.
 */
export function createSearchTool(search: SiteSearch, options: SearchToolOptions) {
  const numbers = new Map<string, number>();
  return tool({
    description:
      "Search the website's own content. Returns numbered passages with title and URL; cite them as [N]. " +
      "Passages marked internal have no number: they are background for you, never quoted or cited.",
    inputSchema: SEARCH_INPUT,
    async execute({ query }, { abortSignal }): Promise<SearchToolOutput> {
      const k = options.k ?? 5;
      let result;
      try {
        // Deeper than the passages shown: the entries ranked next may be offered as related
        // questions (`more`), since the one the visitor meant is often there.
        result = await search.search(query, { k: k + RELATED_DEPTH, signal: abortSignal });
      } catch (error) {
        console.error("search_site failed:", error);
        return {
          mode: "unavailable",
          passages: [],
          note: "The site search is unavailable right now.",
        };
      }
      const related = relatedEntryTest(query);
      const passages = result.passages.slice(0, k).map((p): PublicPassage | InternalPassageRef => {
        const url = p.url === null ? null : sourceLink(p.url, options.origin, options.siteOrigins);
        if (url === null || p.n === undefined) {
          return { ref: p.id, title: p.title, internal: true };
        }
        let n = numbers.get(p.id);
        if (n === undefined) {
          n = numbers.size + 1;
          numbers.set(p.id, n);
        }
        return {
          n,
          title: p.title,
          url,
          text: p.text,
          score: p.score,
          ...(p.match === undefined ? {} : { match: p.match }),
          ...(related(p) ? { relatedQuestion: true as const } : {}),
        };
      });
      const more = result.passages.slice(k).flatMap((p): RelatedEntry[] => {
        const url = p.url === null ? null : sourceLink(p.url, options.origin, options.siteOrigins);
        return url !== null && p.match !== undefined && related(p)
          ? [{ title: p.title, url, match: p.match }]
          : [];
      });
      const read = {
        ...(result.translatedFrom ? { translatedFrom: result.translatedFrom } : {}),
        ...(result.translation ? { translation: result.translation } : {}),
        ...(more.length ? { more } : {}),
      };
      return passages.length
        ? { mode: result.mode, passages, ...read }
        : { mode: result.mode, passages, ...read, note: "Nothing on the site matches this query." };
    },
    // Also applied by convertToModelMessages to saved history, so later turns resolve too.
    toModelOutput: ({ output }) => ({ type: "json", value: modelView(output, search) }),
  });
}

/**
 * The model's view of a tool output: every internal reference replaced by the passage's
 * text from the index (or a short note when the index no longer has it). Outputs saved
 * before references existed, or of any other shape, pass through as JSON.
 */
export function modelView(output: unknown, search: SiteSearch): JSONValue {
  if (!isObject(output) || !Array.isArray(output.passages)) return toJson(output);
  // Which entries the chat offers as related questions is the page's business, not the model's.
  const { more: _, ...shown } = output;
  const passages = output.passages.map((p: unknown) => {
    if (!isObject(p)) return p;
    if (typeof p.ref !== "string" || p.internal !== true) {
      const { relatedQuestion: _, ...passage } = p;
      return passage;
    }
    const stored = search.passage(p.ref);
    return stored
      ? { title: stored.title, text: stored.text, internal: true }
      : { title: p.title, internal: true, note: MISSING_INTERNAL_NOTE };
  });
  return toJson({ ...shown, passages });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}

/** Plain JSON, as the SDK makes a tool output without `toModelOutput` (undefined dropped). */
function toJson(value: unknown): JSONValue {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}
