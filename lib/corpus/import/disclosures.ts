/**
 * FAQ pages written as accordions, tabs or script-driven panels, read as the FAQ entries
 * they are.
 *
 * Most FAQ pages fold their answers away: the W3C's accordion pattern (a `<button
 * aria-expanded aria-controls>` in a heading, the panel `hidden`), Bootstrap's collapse
 * (`data-bs-toggle="collapse"`), script panels (`style="display:none"`, `aria-hidden`),
 * `hidden="until-found"`, tab panels, and buttons or checkbox labels toggled without ARIA. An
 * import that drops hidden content and buttons as page chrome keeps neither the questions nor
 * the answers. Here, before the chrome goes, each panel is shown and its label becomes a
 * heading or a bold question line, which the chunker reads as an FAQ entry
 * (lib/search/chunker.ts). The page's schema.org FAQPage data (JSON-LD) names questions and
 * answers too: a question found on the page is marked and its answer shown; the ones the page
 * does not show at all (rendered by script) are returned to be added to the content. Every
 * label is read in bounded steps: a page can hold thousands of them.
 */
import { parseHTML } from "linkedom";
import { withQuestionMark } from "@/lib/search/question_kind.ts";

type Doc = ReturnType<typeof parseHTML>["document"];
type El = ReturnType<Doc["createElement"]>;

/** One question and answer of a page's FAQPage data. */
export interface FaqDatum {
  question: string;
  /** The answer as the data gives it: HTML or plain text. */
  answer: string;
}

const TRIGGER = "[aria-controls][aria-expanded], [data-bs-toggle=collapse], [data-toggle=collapse]";
// Menus, listboxes and dialogs are disclosed too, but they are chrome, not content.
const NOT_CONTENT = /^(menu|menubar|listbox|dialog|alertdialog|tooltip|tree|grid)$/i;
const HIDING_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important)?\s*(?=;|$)/gi;
const HIDES = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const HEADING = "h1, h2, h3, h4, h5, h6";
/** Elements whose text the page does not show. */
const NO_TEXT = /^(script|style|template|noscript)$/i;
/** Elements no answer from the page's data may carry (the same chrome the page loses). */
const UNSAFE = "script, style, iframe, object, embed, form, template, noscript";

/** Collapse whitespace, for comparing what a page shows with what its data says. */
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

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
function textUpTo(el: El, max = MAX_LABEL): string | null {
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
function show(el: El): void {
  el.removeAttribute("hidden");
  if (el.getAttribute("aria-hidden") === "true") el.removeAttribute("aria-hidden");
  const style = el.getAttribute("style");
  if (style && HIDES.test(style)) el.setAttribute("style", style.replace(HIDING_STYLE, ""));
}

/** The page's elements by id, read once (a lookup by id walks the whole tree each time). */
function idsOf(document: Doc): Map<string, El> {
  const ids = new Map<string, El>();
  for (const el of [...document.querySelectorAll("[id]")] as El[]) {
    const id = el.getAttribute("id");
    if (id && !ids.has(id)) ids.set(id, el);
  }
  return ids;
}

/** The panels a trigger discloses: `aria-controls` ids, else its Bootstrap target. */
function panelsOf(byId: ReadonlyMap<string, El>, trigger: El): El[] {
  const ids = (trigger.getAttribute("aria-controls") ?? "").split(/\s+/).filter(Boolean);
  if (!ids.length) {
    const target = trigger.getAttribute("data-bs-target") ?? trigger.getAttribute("data-target") ??
      trigger.getAttribute("href") ?? "";
    if (/^#[\w-]+$/.test(target)) ids.push(target.slice(1));
  }
  return ids.map((id) => byId.get(id)).filter((el): el is El => el !== undefined);
}

/**
 * The block a disclosure's label stands in: its highest ancestor holding no other text. That
 * whole block is replaced, so that its class names ("card-header", "accordion-header") do
 * not make Readability drop the question as page chrome, and nothing else is lost.
 */
function labelBlock(label: El, body: El): El {
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
function asText(document: Doc, block: El, label: string, heading: El | null): El {
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
function flatten(label: El, panel: El, body: El): void {
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

const TAB = "[role=tab], [data-bs-toggle=tab], [data-bs-toggle=pill], [data-toggle=tab], " +
  "[data-toggle=pill]";

/**
 * Tabbed FAQs ("Pagamento | Entrega | Trocas"): every tab panel is shown under its tab's name
 * as a heading, and the tab list, whose names now head the panels, goes.
 */
function openTabs(document: Doc, byId: ReadonlyMap<string, El>): number {
  let shown = 0;
  const seen = new Set<El>();
  const lists = new Map<El, boolean>();
  for (const tab of [...document.querySelectorAll(TAB)] as El[]) {
    const panel = panelsOf(byId, tab)[0];
    const list = tab.closest("[role=tablist]") as El | null;
    const usable = panel && !NOT_CONTENT.test(panel.getAttribute("role") ?? "") &&
      !tab.contains(panel as never) && !panel.contains(tab as never);
    if (list) lists.set(list, (lists.get(list) ?? true) && Boolean(usable));
    // Each panel once: a crafted page can point thousands of tabs at one large panel.
    if (!usable || seen.has(panel)) continue;
    seen.add(panel);
    show(panel);
    shown++;
    const label = textUpTo(tab);
    // Under the page's title; a panel with headings of that level already keeps its own.
    if (label && !panel.querySelector("h1, h2")) {
      const heading = document.createElement("h2");
      heading.textContent = label;
      panel.insertBefore(heading, panel.firstChild);
    }
  }
  for (const [list, all] of lists) if (all) list.remove();
  return shown;
}

/**
 * Shows every disclosed panel of the page's content and turns each trigger into text.
 * Returns how many panels were shown.
 */
export function openDisclosures(document: Doc): number {
  const byId = idsOf(document);
  let shown = openTabs(document, byId);
  for (const el of [...document.querySelectorAll('[hidden="until-found"]')] as El[]) {
    show(el);
    shown++;
  }
  for (const trigger of [...document.querySelectorAll(TRIGGER)] as El[]) {
    if (
      trigger.getAttribute("aria-haspopup") || trigger.closest("nav, [role=navigation]") ||
      trigger.matches(TAB)
    ) continue;
    const panels = panelsOf(byId, trigger).filter((p) =>
      !NOT_CONTENT.test(p.getAttribute("role") ?? "") && p.tagName !== "NAV" &&
      p.tagName !== "DIALOG"
    );
    if (!panels.length) continue;
    for (const panel of panels) show(panel);
    shown += panels.length;
    const label = textUpTo(trigger);
    if (!label || panels.some((p) => trigger.contains(p as never))) continue;
    const heading = trigger.closest(HEADING) as El | null;
    const body = document.body as El;
    const line = asText(document, labelBlock(trigger, body), label, heading);
    if (panels.length === 1) flatten(line, panels[0], body);
  }
  return shown;
}

/** Controls a script or a stylesheet toggles without ARIA: a button, a checkbox's label. */
const QUESTION_CONTROL = "button, [role=button], label[for], [onclick]";

/**
 * FAQs toggled by a script or by CSS alone (`<button class="faq-q">Posso…?</button>`, a
 * checkbox's `<label>`): a control whose text is a question is the entry's question, turned
 * into a bold question line (a button would go with the page's other buttons), and the hidden
 * element right after it, its answer, is shown.
 */
export function openQuestionControls(document: Doc): number {
  const body = document.body as El | null;
  if (!body) return 0;
  let shown = 0;
  for (const control of [...document.querySelectorAll(QUESTION_CONTROL)] as El[]) {
    if (!control.isConnected || control.closest("nav, form, [role=navigation], [role=dialog]")) {
      continue;
    }
    const label = textUpTo(control);
    if (!label?.endsWith("?")) continue;
    const block = labelBlock(control, body);
    const answer = block.nextElementSibling as El | null;
    const line = asText(document, block, label, control.closest(HEADING) as El | null);
    if (answer && isHidden(answer)) {
      show(answer);
      shown++;
      flatten(line, answer, body);
    }
  }
  return shown;
}

/** Whether an element is hidden by an attribute or an inline style. */
function isHidden(el: El): boolean {
  return el.hasAttribute("hidden") || el.getAttribute("aria-hidden") === "true" ||
    HIDES.test(el.getAttribute("style") ?? "");
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
