/**
 * The work budget of one page. Readability's time grows much faster than the
 * page (about the cube of the nesting depth: 2,000 nested divs take minutes)
 * and linkedom's own parse is quadratic in the depth, both synchronous. So
 * before either runs, one linear pass over the raw HTML measures the tree the
 * parser will build — element count, deepest nesting and a work estimate (the
 * sum over elements of their depth squared, which tracks Readability's time) —
 * and a page past any bound is skipped with the reason, never parsed.
 *
 * The pass follows the tokenizer and tree rules of htmlparser2 (linkedom's
 * parser): raw-text elements, comments and declarations, void elements, the
 * end tags that an open tag implies, end tags that close up to the nearest
 * open element of their name, and self-closing tags only inside SVG/MathML.
 * A page cannot hide depth from it by markup the parser reads differently.
 */

/** Bounds on one page's size and shape. */
export interface PageBudget {
  /** Largest page in bytes (UTF-8) that is read at all. */
  maxBytes: number;
  /** Deepest element nesting that is extracted. */
  maxDepth: number;
  /** Most elements a page may have. */
  maxElements: number;
  /** Largest sum over elements of their depth squared (Readability's work grows with it). */
  maxWork: number;
}

/**
 * The default budget: real pages stay far inside it (a long article is a few
 * thousand elements, 15–40 deep), and a page at the bounds is extracted in
 * about 5 s at worst on one core (50,000 elements 50 deep), not minutes.
 */
export const DEFAULT_PAGE_BUDGET: Readonly<PageBudget> = {
  maxBytes: 2 * 1024 * 1024,
  maxDepth: 256,
  maxElements: 50_000,
  maxWork: 50_000_000,
};

/** The tree a page's HTML makes, measured without building it. */
export interface PageShape {
  elements: number;
  /** Deepest nesting (an element in `<body>` is at depth 2 when the page has `<html>`). */
  depth: number;
  /** Sum over elements of their depth squared. */
  work: number;
}

/**
 * Why `html` is over `budget`, or null when it may be extracted.
 *
 * @example overBudget("<div>".repeat(2000), DEFAULT_PAGE_BUDGET) // "nested 2000 elements deep…"
 */
export function overBudget(html: string, budget: Readonly<PageBudget>): string | null {
  // A UTF-16 length past the cap already means at least as many UTF-8 bytes.
  const bytes = html.length > budget.maxBytes
    ? html.length
    : new TextEncoder().encode(html).byteLength;
  if (bytes > budget.maxBytes) {
    return `larger than the size cap of ${budget.maxBytes} bytes`;
  }
  const shape = measurePage(html);
  const over = "over the page budget, not extracted";
  if (shape.depth > budget.maxDepth) {
    return `nested ${shape.depth} elements deep, more than the ${budget.maxDepth} allowed (${over})`;
  }
  if (shape.elements > budget.maxElements) {
    return `${shape.elements} elements, more than the ${budget.maxElements} allowed (${over})`;
  }
  if (shape.work > budget.maxWork) {
    return `nesting too heavy (depth² summed over elements: ${shape.work}, more than the ` +
      `${budget.maxWork} allowed; ${over})`;
  }
  return null;
}

const VOID = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
const RAW_TEXT = new Set(["script", "style", "title", "textarea", "xmp"]);
const FOREIGN = new Set(["math", "svg"]);
const INTEGRATION = new Set([
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignobject",
  "desc",
  "title",
]);
const P = new Set(["p"]);
const FORM = new Set(["input", "option", "optgroup", "select", "button", "datalist", "textarea"]);
const DDT = new Set(["dd", "dt"]);
const RTP = new Set(["rt", "rp"]);
const SECTIONS = new Set(["thead", "tbody"]);
/** Open tags that close the open elements named (htmlparser2's `openImpliesClose`). */
const IMPLIES_CLOSE = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["li", new Set(["li"])],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", DDT],
  ["dt", DDT],
  ["rt", RTP],
  ["rp", RTP],
  ["tbody", SECTIONS],
  ["tfoot", SECTIONS],
  ...["select", "input", "output", "button", "datalist", "textarea"].map((t) =>
    [t, FORM] as [string, Set<string>]
  ),
  ...[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "header",
    "hr",
    "main",
    "nav",
    "ol",
    "pre",
    "section",
    "table",
    "ul",
  ].map((t) => [t, P] as [string, Set<string>]),
]);

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
const isAlpha = (c: number) => (c | 0x20) >= 97 && (c | 0x20) <= 122;
const endsTagName = (c: number) => c === 47 || c === 62 || isSpace(c);

/** The open-element stack of the parser, with a count per name for O(1) "is one open?". */
class OpenElements {
  readonly names: string[] = [];
  readonly #count = new Map<string, number>();
  /** Foreign-content flags as htmlparser2 keeps them (quirks included). */
  readonly foreign: boolean[] = [false];
  push(name: string): void {
    this.names.push(name);
    this.#count.set(name, (this.#count.get(name) ?? 0) + 1);
  }
  pop(): string | undefined {
    const name = this.names.pop();
    if (name !== undefined) this.#count.set(name, this.#count.get(name)! - 1);
    return name;
  }
  has(name: string): boolean {
    return (this.#count.get(name) ?? 0) > 0;
  }
  top(): string | undefined {
    return this.names[this.names.length - 1];
  }
}

/** Measures the element tree linkedom would build from `html`, in one linear pass. */
export function measurePage(html: string): PageShape {
  const shape: PageShape = { elements: 0, depth: 0, work: 0 };
  const open = new OpenElements();
  const count = (depth: number) => {
    shape.elements++;
    shape.work += depth * depth;
    if (depth > shape.depth) shape.depth = depth;
  };
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    const c = html.charCodeAt(lt + 1);
    if (c === 33) i = skipDeclaration(html, lt + 2);
    else if (c === 63) i = after(html, ">", lt + 2);
    else if (c === 47) i = endTag(html, lt + 2, open, count);
    else if (isAlpha(c)) i = startTag(html, lt + 1, open, count);
    else i = lt + 1;
  }
  return shape;
}

/** The index just past the next `needle` from `from`, or the end of `html`. */
function after(html: string, needle: string, from: number): number {
  const at = html.indexOf(needle, from);
  return at < 0 ? html.length : at + needle.length;
}

/** After "<!": a comment, a CDATA section (a comment in HTML) or a declaration. */
function skipDeclaration(html: string, i: number): number {
  if (html.startsWith("--", i)) {
    // "<!-->" and "<!--->" are whole comments, as in the tokenizer.
    if (html.charCodeAt(i + 2) === 62) return i + 3;
    if (html.startsWith("->", i + 2)) return i + 4;
    return after(html, "-->", i + 2);
  }
  if (html.startsWith("[CDATA[", i)) return after(html, "]]>", i + 7);
  return after(html, ">", i);
}

/** A start tag at `i` (its name's first letter): the stack as the parser changes it. */
function startTag(
  html: string,
  i: number,
  open: OpenElements,
  count: (depth: number) => void,
): number {
  let j = i;
  while (j < html.length && !endsTagName(html.charCodeAt(j))) j++;
  const name = html.slice(i, j).toLowerCase();
  const { end, selfClosing } = skipAttributes(html, j);
  const implied = IMPLIES_CLOSE.get(name);
  if (implied) {
    while (open.names.length && implied.has(open.top()!)) open.pop();
  }
  if (VOID.has(name)) {
    count(open.names.length + 1);
    return end;
  }
  open.push(name);
  if (FOREIGN.has(name)) open.foreign.push(true);
  else if (INTEGRATION.has(name)) open.foreign.push(false);
  count(open.names.length);
  if (selfClosing) {
    // HTML ignores the slash; only foreign content (SVG, MathML) closes the element.
    if (open.foreign[open.foreign.length - 1] && open.top() === name) open.pop();
    return end;
  }
  return RAW_TEXT.has(name) ? rawTextEnd(html, end, name) : end;
}

/** Past a start tag's attributes from `i`: where the tag ends and whether it ends in "/>". */
function skipAttributes(html: string, i: number): { end: number; selfClosing: boolean } {
  const n = html.length;
  let k = i;
  while (k < n) {
    const c = html.charCodeAt(k);
    if (c === 62) return { end: k + 1, selfClosing: false };
    if (c === 47) {
      k++;
      while (k < n && isSpace(html.charCodeAt(k))) k++;
      if (html.charCodeAt(k) === 62) return { end: k + 1, selfClosing: true };
      continue;
    }
    if (isSpace(c)) {
      k++;
      continue;
    }
    while (k < n && html.charCodeAt(k) !== 61 && !endsTagName(html.charCodeAt(k))) k++;
    while (k < n && isSpace(html.charCodeAt(k))) k++;
    if (html.charCodeAt(k) !== 61) continue;
    k++;
    while (k < n && isSpace(html.charCodeAt(k))) k++;
    const q = html.charCodeAt(k);
    if (q === 34 || q === 39) {
      k = after(html, String.fromCharCode(q), k + 1);
    } else {
      while (k < n && !isSpace(html.charCodeAt(k)) && html.charCodeAt(k) !== 62) k++;
    }
  }
  return { end: n, selfClosing: false };
}

/** Where the text of a raw-text element (script, style, title…) ends: at its "</name". */
function rawTextEnd(html: string, from: number, name: string): number {
  const close = new RegExp(`</${name}[ \\n\\t\\f\\r>]`, "gi");
  close.lastIndex = from;
  return close.exec(html)?.index ?? html.length;
}

/** An end tag after "</" at `i`: closes up to the nearest open element of its name. */
function endTag(
  html: string,
  i: number,
  open: OpenElements,
  count: (depth: number) => void,
): number {
  const n = html.length;
  let k = i;
  while (k < n && isSpace(html.charCodeAt(k))) k++;
  if (!isAlpha(html.charCodeAt(k))) return after(html, ">", k);
  const start = k;
  while (k < n && html.charCodeAt(k) !== 62 && !isSpace(html.charCodeAt(k))) k++;
  const name = html.slice(start, k).toLowerCase();
  const end = after(html, ">", k);
  if (FOREIGN.has(name) || INTEGRATION.has(name)) open.foreign.pop();
  if (VOID.has(name)) {
    if (name === "br") count(open.names.length + 1); // "</br>" is a <br>
  } else if (open.has(name)) {
    while (open.pop() !== name);
  } else if (name === "p") {
    count(open.names.length + 1); // a stray "</p>" is an empty <p>
  }
  return end;
}
