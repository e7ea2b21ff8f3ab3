/**
 * One text part as markdown. A finished part renders whole; a streaming part
 * renders block by block, each block's HTML cached, so a frame re-renders only
 * the block still growing instead of the whole answer (long answers would
 * otherwise cost more every frame). Finished HTML is cached too, so earlier
 * messages cost nothing when the list re-renders.
 */
import type { RenderMarkdown } from "@/lib/client/markdown.ts";

/** HTML by renderer, then by citation context and text. Bounded: old entries go first. */
const caches = new WeakMap<RenderMarkdown, Map<string, string>>();
const MAX_ENTRIES = 500;

function cached(
  render: RenderMarkdown,
  context: string,
  text: string,
  cite: (n: number) => string | null,
): string {
  let cache = caches.get(render);
  if (!cache) caches.set(render, cache = new Map());
  const key = `${context}\u0000${text}`;
  let html = cache.get(key);
  if (html === undefined) {
    html = render(text, cite);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, html);
  }
  return html;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits markdown at blank lines that end a block for sure: outside code fences,
 * and followed by an unindented line (an indented one may continue a list item).
 * Joined back, the blocks are the text.
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split("\n");
  const blocks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const m = FENCE.exec(lines[i]);
    if (m) {
      if (fence === null) fence = m[1][0];
      else if (m[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null || lines[i].trim() !== "" || i + 1 >= lines.length) continue;
    const next = lines[i + 1];
    if (next === "" || next[0] === " " || next[0] === "\t") continue;
    blocks.push(lines.slice(start, i + 1).join("\n") + "\n");
    start = i + 1;
  }
  blocks.push(lines.slice(start).join("\n"));
  return blocks;
}

interface MarkdownTextProps {
  text: string;
  streaming: boolean;
  render: RenderMarkdown;
  cite: (n: number) => string | null;
  /** Identifies what `cite` links to (the message and its source numbers). */
  citeContext: string;
}

export function MarkdownText({ text, streaming, render, cite, citeContext }: MarkdownTextProps) {
  if (!streaming) {
    return (
      <div
        class="md"
        dangerouslySetInnerHTML={{ __html: cached(render, citeContext, text, cite) }}
      />
    );
  }
  const blocks = splitBlocks(text);
  return (
    <div class="md md-streaming">
      {blocks.map((block, i) => (
        <div
          key={i}
          class="md-block"
          dangerouslySetInnerHTML={{
            // The last block is still growing: caching each of its states would only churn.
            __html: i < blocks.length - 1
              ? cached(render, citeContext, block, cite)
              : render(block, cite),
          }}
        />
      ))}
    </div>
  );
}
