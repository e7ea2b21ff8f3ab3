import assert from "node:assert/strict";
import { createMarkdown, MAX_MATH_OPENERS } from "./markdown.ts";
import { renderMath } from "./math.ts";

const cite = (n: number) => n === 1 ? "#src-m-1" : null;

Deno.test("markdown: raw HTML is text, links open safely, remote images are links, [N] links its chip", () => {
  const render = createMarkdown();
  const html = render(
    "<script>alert(1)</script> [site](https://e.org) ![gráfico](https://evil.example/x.png?q=chat) ok [1] [7]",
    cite,
  );
  assert.ok(html.includes("&lt;script&gt;"), "raw HTML escaped");
  assert.ok(!html.includes("<script"));
  assert.match(
    html,
    /<a href="https:\/\/e\.org" target="_blank" rel="noopener noreferrer nofollow">/,
  );
  assert.ok(!html.includes("<img"), "no image element: it would load by itself");
  assert.match(html, /class="image-link" href="https:\/\/evil\.example\/x\.png\?q=chat"/);
  assert.match(html, /<a class="cite" href="#src-m-1" data-cite="1" aria-label="Fonte 1">1<\/a>/);
  assert.ok(
    !html.includes("[7]") && !html.includes('data-cite="7"'),
    "an unknown citation is dropped",
  );
});

Deno.test("markdown: math renders as MathML; currency stays text; bad TeX shows marked", () => {
  const render = createMarkdown(undefined, { math: renderMath });
  const inline = render("A área é $\\pi r^2$ e custa R$ 10 ou R$ 20.", cite);
  assert.match(inline, /<math><mrow><mi>π<\/mi><msup><mi>r<\/mi>/);
  assert.ok(inline.includes("custa R$ 10 ou R$ 20."), "dollar amounts are not math");
  const block = render("\\[\n\\frac{a}{b}\n\\]", cite);
  assert.match(block, /<math display="block"[^>]*><mfrac><mi>a<\/mi><mi>b<\/mi><\/mfrac><\/math>/);
  const bad = render("erro $\\frac{a$ aqui", cite);
  assert.match(bad, /<code class="math-src math-error" title="[^"]+">\\frac\{a<\/code>/);
});

Deno.test("markdown: without the math renderer, TeX shows as code and asks for the renderer", () => {
  let asked = 0;
  const render = createMarkdown(undefined, { onMathWithoutRenderer: () => asked++ });
  assert.equal(render("Sem fórmulas, R$ 5.", cite).includes("math-src"), false);
  assert.equal(asked, 0);
  assert.match(render("Com $x^2$.", cite), /<code class="math-src">x\^2<\/code>/);
  assert.equal(asked, 1);
});

Deno.test("markdown: math renders as usual; an answer flooded with openers renders without math", () => {
  const render = createMarkdown(undefined, { math: (tex) => `<math>${tex}</math>` });
  assert.match(render("Área: \\(\\pi r^2\\)", () => null), /<math>\\pi r\^2<\/math>/);
  const flooded = "\\(".repeat(MAX_MATH_OPENERS + 1) + " x \\(y\\)";
  assert.doesNotMatch(render(flooded, () => null), /<math>/);
});
