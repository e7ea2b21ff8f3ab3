/**
 * A page's schema.org FAQPage data (JSON-LD): the questions and answers the page declares.
 * A question the page shows as a plain line is marked as the entry's question and its folded
 * answer shown (faq_lines.ts); the entries the page's HTML does not hold at all (rendered by a
 * script in the browser) are returned, to be added to the extracted content.
 */
import { parseHTML } from "linkedom";
import {
  asText,
  type Doc,
  type El,
  flatten,
  HEADING,
  labelBlock,
  NO_TEXT,
  norm,
  show,
  textUpTo,
} from "./faq_lines.ts";

/** Elements no answer from the page's data may carry (the same chrome the page loses). */
const UNSAFE = "script, style, iframe, object, embed, form, template, noscript";

/** One question and answer of a page's FAQPage data. */
export interface FaqDatum {
  question: string;
  /** The answer as the data gives it: HTML or plain text. */
  answer: string;
}

/** The Question items of one JSON-LD value (a graph, a list or an FAQPage). */
function questionsIn(value: unknown, out: FaqDatum[], depth = 0): void {
  if (depth > 8 || !value || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const v of value) questionsIn(v, out, depth + 1);
    return;
  }
  const node = value as Record<string, unknown>;
  const type = ([] as unknown[]).concat(node["@type"] ?? []);
  if (type.includes("Question") && typeof node.name === "string") {
    const answers = ([] as unknown[]).concat(node.acceptedAnswer ?? node.suggestedAnswer ?? []);
    const text = answers.map((a) =>
      a && typeof a === "object" ? (a as Record<string, unknown>).text : undefined
    ).find((t): t is string => typeof t === "string" && t.trim() !== "");
    if (text && node.name.trim()) out.push({ question: norm(node.name), answer: text });
    return;
  }
  for (const key of ["@graph", "mainEntity", "hasPart"]) questionsIn(node[key], out, depth + 1);
}

/** The page's FAQPage questions and answers (JSON-LD), in page order; [] when it has none. */
export function faqData(document: Doc): FaqDatum[] {
  const out: FaqDatum[] = [];
  for (const script of [...document.querySelectorAll('script[type="application/ld+json"]')]) {
    try {
      questionsIn(JSON.parse(script.textContent ?? ""), out);
    } catch {
      // A page's broken structured data is no reason to refuse its content.
    }
  }
  return out;
}

/** An answer given as HTML or text, as a body without the elements no page shows. */
function answerBody(answer: string): El | null {
  const { document } = parseHTML(`<!doctype html><html><body>${answer}</body></html>`);
  for (const el of [...document.querySelectorAll(UNSAFE)]) el.remove();
  return document.body as El | null;
}

/** Plain text of an answer given as HTML or text. */
function answerText(answer: string): string {
  return norm(answerBody(answer)?.textContent ?? "");
}

/** Most FAQPage entries read from one page: the text search below is per entry. */
const MAX_FAQ_DATA = 300;
/** Occurrences of a question's text looked at for the entry's own line. */
const MAX_OCCURRENCES = 20;
/** Characters of an answer's start looked for on the page. */
const ANSWER_PROBE = 60;

type TextNode = { data: string; parentElement: El | null };

/**
 * The page's shown text as one whitespace-collapsed string, with the text node each offset
 * falls in. The parser splits a text at its character references ("a &gt; b" is three
 * nodes), so a question or an answer is looked for in the whole text, not node by node.
 */
interface PageText {
  text: string;
  nodes: TextNode[];
  /** Where each node starts in `text`. */
  starts: number[];
}

function pageText(root: El): PageText {
  const nodes: TextNode[] = [];
  const starts: number[] = [];
  let text = "";
  const stack: Array<{ nodeType: number; nodeName: string; childNodes: ArrayLike<unknown> }> = [
    root,
  ];
  while (stack.length) {
    const node = stack.pop()!;
    if (NO_TEXT.test(node.nodeName)) continue;
    if (node.nodeType === 3) {
      let data = (node as unknown as TextNode).data.replace(/\s+/g, " ");
      if (text.endsWith(" ") || text === "") data = data.replace(/^ /, "");
      if (!data) continue;
      nodes.push(node as unknown as TextNode);
      starts.push(text.length);
      text += data;
      continue;
    }
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as typeof node);
  }
  return { text, nodes, starts };
}

/** The node of `page` that offset `at` falls in. */
function nodeAtOffset(page: PageText, at: number): TextNode {
  let lo = 0;
  let hi = page.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (page.starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return page.nodes[lo];
}

/**
 * The element showing `question` as its whole text, the last one on the page (a table of
 * contents comes first) outside a link; and where its text starts. Null when none.
 */
function questionElement(page: PageText, question: string): { el: El; at: number } | null {
  let at = page.text.lastIndexOf(question);
  // A question repeated all over a page is no entry of it: a few occurrences are looked at.
  for (let seen = 0; at >= 0 && seen < MAX_OCCURRENCES; seen++) {
    const el = nodeAtOffset(page, at).parentElement;
    if (el && !el.closest("a") && textUpTo(el) === question) return { el, at };
    if (at === 0) break;
    at = page.text.lastIndexOf(question, at - 1);
  }
  return null;
}

/**
 * Marks the FAQPage data's questions where the page shows them and shows their answers;
 * returns the entries the page's HTML does not hold at all, to be added to its content.
 */
export function applyFaqData(document: Doc, data: readonly FaqDatum[]): FaqDatum[] {
  const body = document.body as El | null;
  if (!body || !data.length) return [];
  const page = pageText(body);
  const missing: FaqDatum[] = [];
  for (const datum of data.slice(0, MAX_FAQ_DATA)) {
    const found = questionElement(page, datum.question);
    if (!found) {
      missing.push(datum);
      continue;
    }
    // The answer follows its question (another entry may start with the same words).
    const probe = answerText(datum.answer).slice(0, ANSWER_PROBE);
    const at = probe ? page.text.indexOf(probe, found.at + datum.question.length) : -1;
    const answer = at < 0 ? null : nodeAtOffset(page, at);
    for (
      let el = answer?.parentElement ?? null;
      el && el !== body;
      el = el.parentElement as El | null
    ) {
      show(el);
    }
    // A <summary> or a <dt> the chunker reads already.
    if (found.el.closest("summary, dt")) continue;
    const block = labelBlock(found.el, body);
    const heading = found.el.closest(HEADING) as El | null;
    const line = asText(document, block, datum.question, heading);
    const panel = answer ? answerBlock(answer, line, body) : null;
    if (panel) flatten(line, panel, body);
  }
  return missing;
}

/** The answer's highest ancestor that is a sibling of its question's line, or null. */
function answerBlock(answer: TextNode, line: El, body: El): El | null {
  for (let el = answer.parentElement; el && el !== body; el = el.parentElement as El | null) {
    if (el.parentElement === line.parentElement) return el;
  }
  return null;
}

/** HTML for entries the page does not show: a heading and the answer, each. */
export function faqHtml(entries: readonly FaqDatum[]): string {
  const { document } = parseHTML("<!doctype html><html><body></body></html>");
  return entries.map((e) => {
    const heading = document.createElement("h2");
    heading.textContent = e.question;
    return `${heading.outerHTML}\n${answerBody(e.answer)?.innerHTML ?? ""}`;
  }).join("\n");
}
