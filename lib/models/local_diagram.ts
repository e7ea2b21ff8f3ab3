/**
 * The offline model's diagram: asked to draw how the assistant works ("desenhe um
 * diagrama de como o assistente funciona", "draw a diagram of how the assistant
 * works"), it searches the site, then calls `create_artifact` with an SVG whose
 * boxes are the headings of the passages found — the sections of the page that
 * explains the assistant, in the order the search ranked them, each with its
 * citation number — and finally says in one sentence what it drew, citing them.
 *
 * No generation: the picture is laid out from the corpus' headings, the words are
 * fixed phrases in Portuguese and English.
 */
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { ARTIFACT_TOOL } from "@/lib/artifacts/types.ts";
import { isCreated } from "@/lib/artifacts/versions.ts";
import { isDiagramRequest } from "@/lib/search/diagram_request.ts";
import type { AnswerLang, AnswerPassage } from "./extractive.ts";

/** What the offline model does next for a diagram request. */
export type DiagramStep =
  | { kind: "tool-call"; toolName: string; input: string }
  | { kind: "text"; text: string };

/** What {@linkcode diagramPlan} needs from the model's call. */
export interface DiagramContext {
  prompt: LanguageModelV4Prompt;
  /** The visitor's latest message. */
  question: string;
  lang: AnswerLang;
  /** Whether the call offers `search_site` and `create_artifact` (and tools are on). */
  canSearch: boolean;
  canDraw: boolean;
  /** The latest `search_site` result after the question: passages, null (failed), undefined (none). */
  searched: AnswerPassage[] | null | undefined;
}

/** Query the diagram searches with: the page that explains the assistant ranks first. */
export const DIAGRAM_QUERY: Record<AnswerLang, string> = {
  pt: "como funciona o assistente passo a passo ferramentas",
  en: "how the assistant works step by step tools",
};

const TITLE: Record<AnswerLang, string> = {
  pt: "Como o assistente funciona",
  en: "How the assistant works",
};

/** The next step for a diagram request, or null when the message is not one (or tools are missing). */
export function diagramPlan(context: DiagramContext): DiagramStep | null {
  const { prompt, question, lang, canSearch, canDraw, searched } = context;
  if (!canSearch || !canDraw || !isDiagramRequest(question)) return null;
  const drawn = latestArtifactResult(prompt);
  if (drawn !== undefined) return { kind: "text", text: doneText(drawn, searched ?? [], lang) };
  // The site search may have run on the visitor's words already (the turn's prefetch): the
  // diagram draws from its own query, which finds the page that explains the assistant.
  if (searched === undefined || !searchedFor(prompt, DIAGRAM_QUERY[lang])) {
    return {
      kind: "tool-call",
      toolName: "search_site",
      input: JSON.stringify({ query: DIAGRAM_QUERY[lang] }),
    };
  }
  const cited = (searched ?? []).filter((p) => p.n !== undefined);
  if (cited.length === 0) return null; // The extractive path says the site does not cover it.
  const input = { title: TITLE[lang], kind: "svg", content: diagramSvg(cited, lang) };
  return { kind: "tool-call", toolName: ARTIFACT_TOOL, input: JSON.stringify(input) };
}

/** The sentence after the drawing: what it shows and where that comes from, cited. */
function doneText(drawn: unknown, passages: AnswerPassage[], lang: AnswerLang): string {
  if (!isCreated(drawn)) {
    return lang === "pt"
      ? "Não consegui criar o diagrama agora."
      : "I could not create the diagram just now.";
  }
  const flow = diagramFlow(passages.filter((p) => p.n !== undefined));
  const cites = flow.steps.map((s) => `[${s.n}]`).join("");
  return lang === "pt"
    ? `Pronto: o diagrama mostra, em ${flow.steps.length} etapas, as seções de “${flow.title}” que explicam o funcionamento do assistente ${cites}. Abra o cartão para ver, comparar versões ou baixar.`
    : `Done: the diagram shows, in ${flow.steps.length} steps, the sections of “${flow.title}” that explain how the assistant works ${cites}. Open the card to view it, compare versions or download it.`;
}

/** Whether the latest `search_site` call after the visitor's latest message asked `query`. */
function searchedFor(prompt: LanguageModelV4Prompt, query: string): boolean {
  let asked: unknown = undefined;
  for (const message of prompt.slice(lastUserIndex(prompt) + 1)) {
    if (message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type === "tool-call" && part.toolName === "search_site") asked = part.input;
    }
  }
  if (typeof asked === "string") {
    try {
      asked = JSON.parse(asked);
    } catch {
      return false;
    }
  }
  return (asked as { query?: unknown } | undefined)?.query === query;
}

function lastUserIndex(prompt: LanguageModelV4Prompt): number {
  let i = prompt.length - 1;
  while (i >= 0 && prompt[i].role !== "user") i--;
  return i;
}

/** The output of the latest `create_artifact` result after the visitor's latest message. */
function latestArtifactResult(prompt: LanguageModelV4Prompt): unknown {
  let found: unknown = undefined;
  for (const message of prompt.slice(lastUserIndex(prompt) + 1)) {
    if (message.role !== "tool" && message.role !== "assistant") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolName !== ARTIFACT_TOOL) continue;
      found = part.output.type === "json" ? part.output.value : null;
    }
  }
  return found;
}

/** The document the diagram draws (the one most passages came from) and its sections. */
export function diagramFlow(passages: readonly AnswerPassage[]): {
  title: string;
  steps: { heading: string; n: number }[];
  others: { title: string; n: number }[];
} {
  const docOf = (p: AnswerPassage) => p.title.split(" › ")[0];
  const counts = new Map<string, number>();
  for (const p of passages) counts.set(docOf(p), (counts.get(docOf(p)) ?? 0) + 1);
  const title = [...counts.entries()].reduce((a, b) => (b[1] > a[1] ? b : a), ["", 0])[0];
  const steps: { heading: string; n: number }[] = [];
  const others: { title: string; n: number }[] = [];
  for (const p of passages) {
    const heading = p.title.split(" › ").slice(1).join(" › ") || docOf(p);
    if (docOf(p) === title) steps.push({ heading, n: p.n! });
    else others.push({ title: p.title.split(" › ").at(-1)!, n: p.n! });
  }
  return { title, steps, others };
}

const W = 640;
const BOX_W = 420;
const BOX_H = 58;
const GAP = 30;
const LINE = 34;

/** The SVG: the page's title, its sections as a numbered flow, related pages beside. */
export function diagramSvg(passages: readonly AnswerPassage[], lang: AnswerLang): string {
  const flow = diagramFlow(passages);
  const top = 96;
  const height = Math.max(
    top + flow.steps.length * (BOX_H + GAP) + 40,
    top + flow.others.length * (BOX_H + 14) + 80,
  );
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W + 260} ${height}" width="${
      W + 260
    }" height="${height}" role="img" aria-labelledby="t">`,
    `<title id="t">${xml(TITLE[lang])}: ${xml(flow.title)}</title>`,
    `<rect width="100%" height="100%" fill="#f8fafc"/>`,
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L10 5L0 10z" fill="#475569"/></marker></defs>`,
    `<text x="40" y="44" font-family="system-ui, sans-serif" font-size="22" font-weight="700" fill="#0f172a">${
      xml(flow.title)
    }</text>`,
    `<text x="40" y="70" font-family="system-ui, sans-serif" font-size="13" fill="#475569">${
      xml(
        lang === "pt"
          ? "Seções do site, na ordem da busca"
          : "Sections of the site, in search order",
      )
    }</text>`,
  ];
  flow.steps.forEach((step, i) => {
    const y = top + i * (BOX_H + GAP);
    out.push(box(40, y, BOX_W, `${i + 1}. ${step.heading}`, step.n, "#dbeafe", "#1d4ed8"));
    if (i < flow.steps.length - 1) {
      out.push(
        `<line x1="${40 + BOX_W / 2}" y1="${y + BOX_H}" x2="${40 + BOX_W / 2}" y2="${
          y + BOX_H + GAP - 2
        }" stroke="#475569" stroke-width="2" marker-end="url(#arrow)"/>`,
      );
    }
  });
  if (flow.others.length) {
    out.push(
      `<text x="${W - 120}" y="${
        top - 10
      }" font-family="system-ui, sans-serif" font-size="13" fill="#475569">${
        xml(lang === "pt" ? "Veja também" : "See also")
      }</text>`,
    );
    flow.others.forEach((other, i) => {
      out.push(
        box(W - 120, top + i * (BOX_H + 14), 340, other.title, other.n, "#f1f5f9", "#64748b"),
      );
    });
  }
  out.push("</svg>");
  return out.join("\n");
}

/** A box with a heading (wrapped to two lines) and its citation number. */
function box(
  x: number,
  y: number,
  w: number,
  text: string,
  n: number,
  fill: string,
  stroke: string,
): string {
  const lines = wrap(text, w === BOX_W ? LINE + 6 : LINE);
  const textY = lines.length === 1 ? y + BOX_H / 2 + 5 : y + BOX_H / 2 - 4;
  return [
    `<g><rect x="${x}" y="${y}" width="${w}" height="${BOX_H}" rx="10" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>`,
    ...lines.map((line, i) =>
      `<text x="${x + 16}" y="${
        textY + i * 18
      }" font-family="system-ui, sans-serif" font-size="15" fill="#0f172a">${xml(line)}</text>`
    ),
    `<text x="${x + w - 14}" y="${
      y + 20
    }" text-anchor="end" font-family="system-ui, sans-serif" font-size="12" fill="${stroke}">[${n}]</text></g>`,
  ].join("");
}

/** Word wrap to at most two lines of about `width` characters (the second ends in "…" when cut). */
function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/);
  const lines = [""];
  for (const word of words) {
    const line = lines.at(-1)!;
    if (!line || line.length + 1 + word.length <= width) {
      lines[lines.length - 1] = line ? `${line} ${word}` : word;
    } else if (lines.length < 2) lines.push(word);
    else {
      lines[1] = lines[1].length + 2 <= width ? `${lines[1]} …` : lines[1];
      break;
    }
  }
  return lines;
}

function xml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll(
    '"',
    "&quot;",
  );
}
