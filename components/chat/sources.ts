/**
 * The sources of an answer: its `source-url` parts, enriched with the passage
 * text from the `search_site` tool output, linked to the passage on its page.
 * Only an absolute http(s) URL becomes a link: a chat saved in KV may hold a
 * URL from before the server checked them (`javascript:`, `data:`…).
 */
import type { ChatMessage, SearchToolOutput } from "@/lib/protocol/ui_message.ts";
import { httpLink } from "@/lib/text/source_link.ts";
import { citedNumbers } from "@/lib/text/message_citations.ts";

/** One numbered source of an answer. */
export interface Source {
  n: number;
  url: string;
  title: string;
  /** First line of the passage, for the chip's preview. */
  snippet: string;
  /** The URL with a `#:~:text=` fragment that scrolls to the passage; null when not a link. */
  href: string | null;
}

/** A text fragment directive for the first words of a passage. */
export function textFragmentUrl(url: string, text: string): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ").slice(0, 8).join(" ");
  if (!words) return url;
  const hashAt = url.indexOf("#");
  const base = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const anchor = hashAt >= 0 ? url.slice(hashAt + 1) : "";
  const encoded = encodeURIComponent(words).replace(/-/g, "%2D");
  return `${base}#${anchor}:~:text=${encoded}`;
}

/**
 * The sources the answer cites, for its chips and its copy: the search numbers every passage
 * it returns, and chips for the ones the answer never used would present them as its sources.
 * While the answer streams, a chip appears with its first citation.
 */
export function citedSourcesOf(message: ChatMessage): Source[] {
  const cited = citedNumbers(message);
  return sourcesOf(message).filter((s) => cited.has(s.n));
}

/** Collects the numbered sources of a message, in citation order. */
export function sourcesOf(message: ChatMessage): Source[] {
  const texts = new Map<number, string>();
  for (const part of message.parts) {
    if (part.type === "tool-search_site" && part.state === "output-available") {
      for (const p of (part.output as SearchToolOutput).passages ?? []) {
        if (p.n !== undefined) texts.set(p.n, p.text);
      }
    }
  }
  const out: Source[] = [];
  const seen = new Set<number>();
  for (const part of message.parts) {
    if (part.type !== "source-url") continue;
    const n = Number(part.sourceId);
    if (!Number.isInteger(n) || seen.has(n)) continue;
    seen.add(n);
    const text = texts.get(n) ?? "";
    const link = httpLink(part.url);
    out.push({
      n,
      url: part.url,
      title: part.title ?? part.url,
      snippet: text.split("\n").find((l) => l.trim())?.trim().slice(0, 160) ?? "",
      href: link && text ? textFragmentUrl(link, text) : link,
    });
  }
  return out.sort((a, b) => a.n - b.n);
}
