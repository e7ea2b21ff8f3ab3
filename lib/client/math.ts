/**
 * TeX to MathML with temml, for markdown math (see lib/client/markdown.ts).
 * MathML needs no fonts or stylesheet of its own, so this module is the whole
 * cost; the island loads it only when an answer has math. TeX that does not
 * parse (a model's typo) shows as its source, marked, instead of failing the answer.
 */
import temml from "temml";
import type { RenderMath } from "./markdown.ts";

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

export const renderMath: RenderMath = (tex, display) => {
  try {
    return temml.renderToString(tex, { displayMode: display, throwOnError: true, trust: false });
  } catch (error) {
    const title = error instanceof Error ? error.message : String(error);
    const code = `<code class="math-src math-error" title="${esc(title)}">${esc(tex)}</code>`;
    return display ? `<pre class="math-src">${code}</pre>` : code;
  }
};
