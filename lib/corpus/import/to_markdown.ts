/**
 * Main-content HTML → corpus markdown (turndown): ATX headings, fenced code,
 * "-" bullets, the page title as the single `# Title` line the corpus expects.
 */
import TurndownService from "turndown";
// Turndown's own GFM plugin (Joplin's maintained fork): tables become markdown tables, which
// the chunker reads row by row, instead of one paragraph per cell.
import { tables } from "@joplin/turndown-plugin-gfm";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
});
turndown.use(tables);
// Images carry no searchable words and would only be noise in passages.
turndown.remove(["img", "picture", "video", "audio", "canvas", "button"]);
turndown.remove((node) => node.nodeName.toLowerCase() === "svg");
// An FAQ question in a <summary> or a <dt> becomes a bold question line of its own, which the
// chunker reads as an FAQ entry (lib/search/chunker.ts): the answer after it is one unit.
turndown.addRule("faq-question", {
  filter: (node) => {
    const name = node.nodeName.toLowerCase();
    return (name === "summary" || name === "dt") && /\?\s*$/.test(node.textContent ?? "");
  },
  replacement: (content) =>
    `\n\n**${content.replace(/\s+/g, " ").replace(/\*\*/g, "").trim()}**\n\n`,
});

// A <pre> with no <code> inside (DocBook's `<pre class="screen">`, many CMSs) is code too:
// turndown fences only `<pre><code>`, and read as prose its lines became paragraphs with their
// "_" escaped ("lsb\_release -a"), each quoted by the offline model as a sentence of its own.
turndown.addRule("bare-pre", {
  // `<pre><code>` alone is turndown's own fenced block.
  filter: (node) =>
    node.nodeName.toLowerCase() === "pre" &&
    !(node.childNodes.length === 1 && node.firstChild?.nodeName.toLowerCase() === "code"),
  replacement: (_content, node) => {
    const code = (node.textContent ?? "").replace(/^\n+|\s+$/g, "");
    if (!code) return "";
    const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    return `\n\n${fence}\n${code}\n${fence}\n\n`;
  },
});

/**
 * The document's markdown: `# title`, then the content with any top-level
 * heading repeating the title dropped and other `#` headings demoted to `##`,
 * so the title stays the only level-1 heading.
 */
export function toMarkdown(html: string, title: string): string {
  const body = turndown.turndown(html)
    .replace(/\u00a0/g, " ")
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .join("\n");
  const lines: string[] = [];
  let fence = false;
  for (const line of body.split("\n")) {
    if (/^(```|~~~)/.test(line)) fence = !fence;
    if (!fence && /^# /.test(line)) {
      if (norm(line.slice(2)) === norm(title)) continue;
      lines.push(`#${line}`);
      continue;
    }
    lines.push(line);
  }
  const text = lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
  return `# ${title.replace(/\s+/g, " ").trim()}\n\n${text}\n`;
}

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();
