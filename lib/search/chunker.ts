/**
 * Markdown → passages: split at headings, keep the heading path as the
 * title and the heading's slug as the anchor, then size the sections to about
 * 150–350 words (long ones split at paragraph ends, short ones merged into the
 * subsection that follows them). An FAQ entry (a question heading, or a bold question
 * line) is never merged: it stays one passage whose title ends with its question.
 */
import MarkdownIt from "markdown-it";
import { withQuestionMark } from "./question_kind.ts";
import { createSlugger } from "./slug.ts";

const md = new MarkdownIt();

/** Passage size bounds, in words. */
export const CHUNK_MIN_WORDS = 150;
export const CHUNK_MAX_WORDS = 350;
/**
 * An FAQ entry stays whole up to this many words: split at 350 like other sections, a long
 * entry's second part ranked first and was quoted without the answer's opening (the Python
 * FAQ imported from its pages: held-out answers pt 0.400 as one passage per entry, 0.350 split).
 */
export const FAQ_ENTRY_MAX_WORDS = 1000;

/** A section of a document, as plain text. */
export interface Chunk {
  /** Heading path, outermost first. */
  path: string[];
  /** Slug of the innermost heading ("" for text before the first heading). */
  anchor: string;
  /** Plain text, paragraphs separated by blank lines. */
  text: string;
}

/** Plain text of inline markdown (links keep their label, code its content). */
export function inlineText(src: string): string {
  const tokens = md.parseInline(src, {})[0]?.children ?? [];
  return tokens.map((t) =>
    t.type === "text" || t.type === "code_inline"
      ? t.content
      : t.type === "softbreak" || t.type === "hardbreak"
      ? " "
      : ""
  ).join("").replace(/\s+/g, " ").trim();
}

/**
 * A table's body row as one line a visitor can read when it is quoted: its first cell, then
 * each other cell under its column's header ("Sul — Prazo: 5 dias úteis; Frete: R$ 20"). Cell
 * by cell, a quote read "Região." "Prazo." "Sul." "5 dias úteis.".
 */
function tableRow(header: readonly string[], cells: readonly string[]): string {
  const rest = cells.slice(1).map((cell, i) => {
    const name = header[i + 1];
    return cell ? (name ? `${name}: ${cell}` : cell) : "";
  }).filter(Boolean);
  return [cells[0], rest.join("; ")].filter(Boolean).join(" — ");
}

const words = (s: string) => (s.match(/\S+/g) ?? []).length;

/** A short list joined to the line that announces it, at most this many items and words. */
const JOINED_LIST_ITEMS = 8;
const JOINED_LIST_WORDS = 60;

/**
 * "Aceitamos:" and its list as one paragraph ("Aceitamos: cartão; boleto; Pix."), so that a
 * quote carries the list it announces rather than "Aceitamos." alone. Returns whether it joined.
 */
function joinAnnouncedList(out: string[], items: readonly string[], nested: boolean): boolean {
  const lead = out.at(-1);
  if (nested || !lead?.endsWith(":") || !items.length || items.length > JOINED_LIST_ITEMS) {
    return false;
  }
  const joined = `${lead} ${items.map((i) => i.replace(/[.;,]+$/, "")).join("; ")}.`;
  if (words(joined) > JOINED_LIST_WORDS) return false;
  out[out.length - 1] = joined;
  return true;
}

/**
 * Plain-text paragraphs of a markdown body: a table's body rows one paragraph each, a short
 * list announced by a line ending in ":" joined to it.
 */
function paragraphs(body: string): string[] {
  const out: string[] = [];
  // Which paragraphs of `out` are code blocks.
  const code = new Set<number>();
  let table: { header: string[]; row: string[]; inHead: boolean } | null = null;
  let list: { items: string[]; depth: number; nested: boolean } | null = null;
  for (const t of md.parse(body, {})) {
    if (t.type === "bullet_list_open" || t.type === "ordered_list_open") {
      if (list) {
        list.depth++;
        list.nested = true;
      } else list = { items: [], depth: 1, nested: false };
      continue;
    }
    if (list && (t.type === "bullet_list_close" || t.type === "ordered_list_close")) {
      if (--list.depth === 0) {
        if (!joinAnnouncedList(out, list.items, list.nested)) out.push(...list.items);
        list = null;
      }
      continue;
    }
    if (list && !table) {
      if (t.type === "inline") list.items.push(inlineText(t.content));
      else if (t.type === "fence" || t.type === "code_block") list.items.push(t.content.trim());
      // A table inside a list item is rare; it is read as the list's own text.
      continue;
    }
    if (t.type === "table_open") table = { header: [], row: [], inHead: false };
    else if (t.type === "table_close") table = null;
    else if (table && t.type === "thead_open") table.inHead = true;
    else if (table && t.type === "thead_close") table.inHead = false;
    else if (table && t.type === "tr_open") table.row = [];
    else if (table && t.type === "tr_close") {
      if (table.inHead) table.header = table.row;
      else out.push(tableRow(table.header, table.row));
    } else if (t.type === "inline") {
      if (table) table.row.push(inlineText(t.content));
      else out.push(inlineText(t.content));
    } else if (t.type === "fence" || t.type === "code_block") {
      code.add(out.length);
      out.push(t.content.trim());
    }
  }
  return withCommandsInSentences(out, code).filter(Boolean);
}

/**
 * A one-line code block that a sentence runs through, as documentation generators lay out a
 * command ("use the" ⏎ `lsb_release -a` ⏎ "command. It will…"; "use o comando" ⏎
 * `lsb_release -a` ⏎ ". Este irá…"), put back into its sentence: the paragraph before it ends
 * no sentence and the one after it goes on in lower case or with the sentence's punctuation.
 * Apart, each piece was quoted as a sentence of its own ("Use the." "Lsb_release -a." "Command.").
 */
function withCommandsInSentences(paras: string[], code: ReadonlySet<number>): string[] {
  const out: string[] = [];
  for (let i = 0; i < paras.length; i++) {
    const before = out.at(-1);
    const after = paras[i + 1];
    if (
      code.has(i) && !paras[i].includes("\n") && before !== undefined && !code.has(i - 1) &&
      !/[.!?…:;]$/u.test(before) && after !== undefined && !code.has(i + 1) &&
      SENTENCE_GOES_ON.test(after)
    ) {
      const gap = /^\p{L}/u.test(after) ? " " : "";
      out[out.length - 1] = `${before} ${paras[i]}${gap}${after}`;
      i++;
    } else out.push(paras[i]);
  }
  return out;
}

/** A paragraph that carries on the sentence before it: lower case, or its punctuation. */
const SENTENCE_GOES_ON = /^(?:\p{Ll}|[.,;:!?)](?:\s|$))/u;

interface Section {
  level: number;
  path: string[];
  anchor: string;
  paras: string[];
}

/**
 * Level below every ATX heading: an FAQ question written as a bold line ("**Posso…?**")
 * opens a section of its own under the current heading.
 */
const QUESTION_LINE_LEVEL = 7;

// FAQ pages written as "Q: …? / A: …" (or "P: …? / R: …", "Pergunta:", "Resposta:").
const QA_QUESTION = /^(?:Q|P|Pergunta|Question)(?:\s*\d+)?\s*:\s*(?=\S)/i;
const QA_ANSWER = /^\s{0,3}(?:\*\*|__)?(?:A|R|Resposta|Answer)(?:\s*\d+)?\s*:\s*(?:\*\*|__)?\s*/i;
// The question's label may be bold on its own ("**Pergunta:** Posso trocar?") and numbered.
const QA_LINE =
  /^\s{0,3}(?:\*\*|__)?(?:Q|P|Pergunta|Question)(?:\s*\d+)?\s*:\s*(?:\*\*|__)?\s*(\S.{1,299}?\?)\s*$/i;

/**
 * The heading a line opens: an ATX heading, or a question in bold or after "Q:"/"P:", alone
 * on its line or leading its answer ("**Posso…?** Sim, …": `rest` is the answer); else null.
 */
function headingOf(line: string): { level: number; text: string; rest?: string } | null {
  const atx = line.match(/^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/);
  if (atx) return { level: atx[1].length, text: inlineText(atx[2]) };
  const bold = line.match(/^\s{0,3}(\*\*|__)(?!\s)(.{2,300}?\?)\1(?:\s+(\S.*))?\s*$/);
  if (bold) {
    const text = inlineText(bold[2]).replace(QA_QUESTION, "");
    return { level: QUESTION_LINE_LEVEL, text, ...(bold[3] ? { rest: bold[3] } : {}) };
  }
  const qa = line.match(QA_LINE);
  return qa ? { level: QUESTION_LINE_LEVEL, text: inlineText(qa[1]) } : null;
}

/** The title of an FAQ page, whose headings that read as questions are its entries. */
const FAQ_TITLE =
  /\b(?:FAQs?|perguntas (?:mais )?frequentes|d[uú]vidas (?:mais )?frequentes|frequently asked questions)\b/i;

/** Whether a heading is a question: an FAQ entry, kept whole as one passage. */
export function isQuestionHeading(text: string): boolean {
  return /\?\s*$/.test(text);
}

/** Split a markdown document into sections at ATX headings (outside code fences). */
export function splitSections(markdown: string): Section[] {
  const slug = createSlugger();
  const sections: Section[] = [];
  const stack: Array<{ level: number; text: string }> = [];
  let current: Section = { level: 0, path: [], anchor: "", paras: [] };
  let body: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    current.paras = paragraphs(body.join("\n"));
    if (current.paras.length || current.level > 0) sections.push(current);
    body = [];
  };
  for (const line of markdown.replace(/^---\n[\s\S]*?\n---\n/, "").split(/\r?\n/)) {
    const f = line.match(/^\s{0,3}(`{3,}|~{3,})/);
    if (f) fence = fence === null ? f[1][0] : (f[1][0] === fence ? null : fence);
    const h = fence === null && !f ? headingOf(line) : null;
    if (!h) {
      // The answer's own label after a question line ("A: …", "Resposta: …") is no content.
      body.push(
        current.level === QUESTION_LINE_LEVEL && !body.some((l) => l.trim())
          ? line.replace(QA_ANSWER, "")
          : line,
      );
      continue;
    }
    flush();
    const { level } = h;
    const text = level > 1 && FAQ_TITLE.test(stack[0]?.level === 1 ? stack[0].text : "")
      ? withQuestionMark(h.text)
      : h.text;
    while (stack.length && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, text });
    current = { level, path: stack.map((s) => s.text), anchor: slug(text), paras: [] };
    if (h.rest) body.push(h.rest.replace(QA_ANSWER, ""));
  }
  flush();
  return sections;
}

/** Split paragraphs into groups of at most `max` words (a longer paragraph is cut at sentence ends). */
function pack(paras: string[], max: number): string[] {
  const pieces = paras.flatMap((p) => words(p) <= max ? [p] : splitSentences(p, max));
  const groups: string[] = [];
  let cur: string[] = [];
  let n = 0;
  for (const p of pieces) {
    const w = words(p);
    if (n && n + w > max) {
      groups.push(cur.join("\n\n"));
      cur = [];
      n = 0;
    }
    cur.push(p);
    n += w;
  }
  if (cur.length) groups.push(cur.join("\n\n"));
  // Avoid a tiny tail: rebalance the last two groups by halving at paragraph level.
  return groups;
}

function splitSentences(p: string, max: number): string[] {
  const sentences = p.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [p];
  const out: string[] = [];
  let cur = "";
  for (const s of sentences) {
    if (cur && words(cur) + words(s) > max) {
      out.push(cur.trim());
      cur = "";
    }
    cur += s;
  }
  if (cur.trim()) out.push(cur.trim());
  // A single sentence longer than max words is cut by words.
  return out.flatMap((s) => {
    const w = s.split(/\s+/);
    if (w.length <= max) return [s];
    const parts: string[] = [];
    for (let i = 0; i < w.length; i += max) parts.push(w.slice(i, i + max).join(" "));
    return parts;
  });
}

/** The passages of one markdown document. */
export function chunkMarkdown(markdown: string): Chunk[] {
  const sections = splitSections(markdown);
  // Merge a short section into the next one when that one is its subsection:
  // the passage keeps the parent's anchor, which precedes the child on the page.
  const merged: Section[] = [];
  for (const s of sections) {
    const prev = merged[merged.length - 1];
    const isChild = prev && s.path.length > prev.path.length &&
      prev.path.every((p, i) => s.path[i] === p);
    const prevWords = prev ? words(prev.paras.join(" ")) : 0;
    // An FAQ entry is one unit, its question the passage's heading: merged into another
    // section, its answer would be quoted beside a neighbour entry's sentences.
    const entry = isQuestionHeading(s.path.at(-1) ?? "");
    if (
      prev && isChild && !entry && prevWords < CHUNK_MIN_WORDS &&
      prevWords + words(s.paras.join(" ")) <= CHUNK_MAX_WORDS
    ) {
      // A heading with no text of its own under it is no content to search.
      const heading = s.paras.length ? s.path.slice(prev.path.length).join(" › ") : "";
      prev.paras.push(...(heading ? [heading] : []), ...s.paras);
      continue;
    }
    merged.push({ ...s, paras: [...s.paras] });
  }
  const chunks: Chunk[] = [];
  for (const s of merged) {
    if (!s.paras.length) continue;
    const max = isQuestionHeading(s.path.at(-1) ?? "") ? FAQ_ENTRY_MAX_WORDS : CHUNK_MAX_WORDS;
    for (const text of pack(s.paras, max)) {
      chunks.push({ path: s.path, anchor: s.anchor, text });
    }
  }
  return chunks;
}
