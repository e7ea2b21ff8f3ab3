/**
 * An FAQ entry's question and answer in an imported page's DOM, as the accordion and
 * FAQ-data readers (disclosures.ts, faq_data.ts) turn them into what the chunker reads: a
 * label becomes a heading or a bold question line, a hidden answer is shown, and the pair is
 * flattened beside the page's other entries. Every label is read in bounded steps: a page can
 * hold thousands, and reading each one's container whole made one page take minutes.
 */
import type { parseHTML } from "linkedom";
import { withQuestionMark } from "@/lib/search/question_kind.ts";

export type Doc = ReturnType<typeof parseHTML>["document"];
export type El = ReturnType<Doc["createElement"]>;

const HIDING_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important)?\s*(?=;|$)/gi;
const HIDES = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
/** The headings a label may stand in. */
export const HEADING = "h1, h2, h3, h4, h5, h6";
/** Elements whose text the page does not show. */
export const NO_TEXT = /^(script|style|template|noscript)$/i;

/** Collapse whitespace, for comparing what a page shows with what its data says. */
export const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

/** The longest label read as a question or a topic; a longer text is content, not a label. */
const MAX_LABEL = 300;
/** Nodes a bounded read visits: a label is a few nodes; a page can hold 50,000 elements. */
const MAX_VISIT = 400;

type TreeNode = {
  nodeType: number;
  nodeName: string;
  firstChild: TreeNode | null;
  nextSibling: TreeNode | null;
};

/**
 * Up to `max + 1` child nodes of `node`, read one by one: the DOM's `childNodes` lists them
 * all on every read, and a page's container can hold thousands.
 */
function someChildren(node: unknown, max: number): TreeNode[] {
  const out: TreeNode[] = [];
  for (let c = (node as TreeNode).firstChild; c && out.length <= max; c = c.nextSibling) {
    out.push(c);
  }
  return out;
}

/**
 * The whitespace-collapsed text of `el` when it is at most `max` characters long, found within
 * MAX_VISIT nodes; else null. Every label is read this way: `textContent` of each of
 * thousands of buttons or of their ancestors made one crafted page take minutes.
 */
export function textUpTo(el: El, max = MAX_LABEL): string | null {
  let text = "";
  let visited = 0;
  const stack: TreeNode[] = [el as unknown as TreeNode];
  while (stack.length) {
    const node = stack.pop()!;
    if (++visited > MAX_VISIT) return null;
    if (node.nodeType === 3) {
      const data = (node as unknown as { data: string }).data;
      // No label pads itself with pages of blanks: a text this long is content.
      if (data.length > 16 * max) return null;
      text += data;
      if (text.length > max * 4 && norm(text).length > max) return null;
      continue;
    }
    if (NO_TEXT.test(node.nodeName)) continue;
    stack.push(...someChildren(node, MAX_VISIT).reverse());
  }
  const out = norm(text);
  return out.length > max ? null : out;
}

/** Whether a node shows any text: stops at the first, or after MAX_VISIT nodes (then true). */
function hasText(node: TreeNode): boolean {
  let visited = 0;
  const stack: TreeNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (++visited > MAX_VISIT) return true;
    if (n.nodeType === 3) {
      if ((n as unknown as { data: string }).data.trim()) return true;
      continue;
    }
    if (NO_TEXT.test(n.nodeName)) continue;
    stack.push(...someChildren(n, MAX_VISIT));
  }
  return false;
}

/** A label's wrappers have a few children; past this many, a parent is a container. */
const MAX_WRAPPER_CHILDREN = 12;

/** Whether `parent`'s only text is `child`'s (checked over a handful of children at most). */
function holdsOnly(parent: El, child: unknown): boolean {
  const kids = someChildren(parent, MAX_WRAPPER_CHILDREN);
  if (kids.length > MAX_WRAPPER_CHILDREN) return false;
  return kids.every((kid) => kid === child || !hasText(kid));
}

/** The element children of `el`, when it has at most `max` and no other text; else null. */
function onlyElements(el: El, max: number): El[] | null {
  const kids = someChildren(el, max);
  if (kids.length > max) return null;
  const elements = kids.filter((k) => k.nodeType === 1) as unknown as El[];
  return kids.every((k) => k.nodeType === 1 || !hasText(k)) ? elements : null;
}

/** Shows `el`: drops the attribute and inline styles that hide it. */
export function show(el: El): void {
  el.removeAttribute("hidden");
  if (el.getAttribute("aria-hidden") === "true") el.removeAttribute("aria-hidden");
  const style = el.getAttribute("style");
  if (style && HIDES.test(style)) el.setAttribute("style", style.replace(HIDING_STYLE, ""));
}

/**
 * The block a disclosure's label stands in: its highest ancestor holding no other text. That
 * whole block is replaced, so that its class names ("card-header", "accordion-header") do
 * not make Readability drop the question as page chrome, and nothing else is lost.
 */
export function labelBlock(label: El, body: El): El {
  let block = label;
  for (
    let up = block.parentElement as El | null;
    up && up !== body && holdsOnly(up, block);
    up = up.parentElement as El | null
  ) block = up;
  return block;
}

/**
 * A disclosure's label as the line the chunker reads: a question ("Como troco um produto",
 * its question mark left off as labels often are, gets it back) as a bold question line or a
 * plain heading of the level it was written in; a topic ("Prazos") as a heading of its own,
 * so that its answer stays apart from the next one.
 */
export function asText(document: Doc, block: El, label: string, heading: El | null): El {
  const question = withQuestionMark(label);
  if (heading || !question.endsWith("?")) {
    const h = document.createElement(heading?.tagName.toLowerCase() ?? "h3") as El;
    h.textContent = question;
    block.replaceWith(h);
    return h;
  }
  const p = document.createElement("p") as El;
  const strong = document.createElement("strong");
  strong.textContent = question;
  p.appendChild(strong);
  block.replaceWith(p);
  return p;
}

const WRAPPER = /^(div|section)$/i;

/** Replaces `el` by its children. */
function unwrap(el: El): void {
  el.replaceWith(...([...el.childNodes] as never[]));
}

/**
 * An entry's label and answer as siblings of the FAQ's other entries, like headings and
 * paragraphs: Readability scores a paragraph into its parent and grandparent only, so with
 * each entry wrapped in an item and a panel it kept one answer of a short page as the article.
 */
export function flatten(label: El, panel: El, body: El): void {
  const item = label.parentElement as El | null;
  const pair = item !== null && item !== body && WRAPPER.test(item.tagName) &&
    panel.parentElement === item &&
    (onlyElements(item, MAX_WRAPPER_CHILDREN)?.every((c) => c === label || c === panel) ?? false);
  let inner = panel;
  // A panel's own wrappers ("collapse" › "accordion-body") hold nothing but the answer.
  for (let only = onlyElements(inner, 1); only?.length === 1 && WRAPPER.test(only[0].tagName);) {
    inner = only[0];
    only = onlyElements(inner, 1);
  }
  if (WRAPPER.test(panel.tagName) && !panel.getAttribute("role")) {
    if (inner !== panel) panel.replaceWith(inner);
    if (WRAPPER.test(inner.tagName)) unwrap(inner);
  }
  if (pair) unwrap(item);
}

/** Whether an element is hidden by an attribute or an inline style. */
export function isHidden(el: El): boolean {
  return el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true" ||
    HIDES.test(el.getAttribute("style") ?? "");
}
