/**
 * Gives an artifact document's `<script>` and `<style>` elements a CSP nonce. Client-safe.
 *
 * The document is parsed with parse5 (the HTML standard's tree builder, as the browser
 * will parse it), so only real elements get the nonce: the text "<script" inside a
 * JavaScript string, a comment, an attribute value or a `<textarea>` is left alone. The
 * nonce is spliced into the source right after each start tag's name, so every other
 * byte of the document stays as the artifact wrote it (no re-serialisation).
 */
import { parse } from "parse5";

/** What this module reads of a parse5 node. */
interface ParsedNode {
  nodeName: string;
  childNodes?: ParsedNode[];
  /** A `<template>`'s contents. */
  content?: ParsedNode;
  sourceCodeLocation?: { startTag?: { startOffset: number } | null } | null;
}

const NONCED = new Set(["script", "style"]);
const MAYBE_NONCED = /<(script|style)/i;

/** Where a nonce attribute goes: just after the tag name of each real script and style start tag. */
function startTagOffsets(html: string): number[] {
  const root = parse(html, { sourceCodeLocationInfo: true }) as unknown as ParsedNode;
  const offsets: number[] = [];
  // An explicit stack: a deeply nested artifact must not overflow the call stack.
  const stack: ParsedNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    const start = node.sourceCodeLocation?.startTag?.startOffset;
    if (NONCED.has(node.nodeName) && start !== undefined) {
      offsets.push(start + 1 + node.nodeName.length);
    }
    if (node.content) stack.push(node.content);
    // A loop, not push(...children): an element may have more children than a call has arguments.
    for (const child of node.childNodes ?? []) stack.push(child);
  }
  return offsets.sort((a, b) => a - b);
}

/**
 * `html` with ` nonce="<nonce>"` added to every `<script>` and `<style>` start tag the HTML
 * parser sees (in SVG too, and in `<template>` contents). The added attribute comes first, so
 * it wins over a `nonce` the artifact wrote itself. `nonce` must be base64 (it is not escaped).
 *
 * @example withNonce('<script>s = "<style>"</script>', "n") // '<script nonce="n">s = "<style>"</script>'
 */
export function withNonce(html: string, nonce: string): string {
  // No element is a script or style without its start tag's text: skip the parse.
  if (!MAYBE_NONCED.test(html)) return html;
  const attr = ` nonce="${nonce}"`;
  const parts: string[] = [];
  let from = 0;
  for (const at of startTagOffsets(html)) {
    parts.push(html.slice(from, at), attr);
    from = at;
  }
  parts.push(html.slice(from));
  return parts.join("");
}
