import assert from "node:assert/strict";
import { extractPage } from "./extract.ts";
import { toMarkdown } from "./to_markdown.ts";
import { chunkMarkdown } from "@/lib/search/chunker.ts";

/** The FAQ entries an imported page yields: [question, first line of its answer]. */
function entries(html: string): string[][] {
  const page = extractPage(html, "https://loja.example/faq");
  return chunkMarkdown(toMarkdown(page.html, page.title))
    .filter((c) => c.path.at(-1)?.endsWith("?"))
    .map((c) => [c.path.at(-1)!, c.text.split("\n")[0]]);
}

const doc = (main: string, head = "") =>
  `<!doctype html><html lang="pt-BR"><head><title>Perguntas frequentes | Loja</title>${head}</head>` +
  `<body><header><nav><a href="/">Início</a></nav></header><main><h1>Perguntas frequentes</h1>` +
  `<p>Respostas para as dúvidas mais comuns de quem compra na loja.</p>${main}</main>` +
  `<footer>Loja Aurora</footer></body></html>`;

const QA = [
  ["Qual é o prazo de entrega?", "O prazo é de cinco dias úteis para as capitais."],
  ["Posso trocar um produto?", "Sim. A troca vale por trinta dias, com a nota fiscal."],
  ["Quais formas de pagamento vocês aceitam?", "Cartão em até doze vezes, boleto e Pix."],
];

Deno.test("the W3C accordion pattern: questions in heading buttons, answers hidden", () => {
  const html = doc(
    QA.map(([q, a], i) =>
      `<h3><button type="button" aria-expanded="${
        i === 0
      }" aria-controls="s${i}" id="b${i}">${q}</button></h3>` +
      `<div id="s${i}" role="region" aria-labelledby="b${i}"${
        i === 0 ? "" : i === 1 ? " hidden" : ' hidden="until-found"'
      }><p>${a}</p></div>`
    ).join(""),
  );
  assert.deepEqual(entries(html), QA);
});

Deno.test("Bootstrap accordions, 4 and 5: the question survives its 'header' class names", () => {
  const v5 = doc(
    `<div class="accordion" id="faq">${
      QA.map(([q, a], i) =>
        `<div class="accordion-item"><h2 class="accordion-header"><button class="accordion-button collapsed" type="button" data-bs-toggle="collapse" data-bs-target="#c${i}" aria-expanded="false" aria-controls="c${i}">${q}</button></h2>` +
        `<div id="c${i}" class="accordion-collapse collapse" data-bs-parent="#faq"><div class="accordion-body">${a}</div></div></div>`
      ).join("")
    }</div>`,
  );
  assert.deepEqual(entries(v5), QA);
  const v4 = doc(
    `<div class="accordion" id="faq">${
      QA.map(([q, a], i) =>
        `<div class="card"><div class="card-header" id="h${i}"><h2 class="mb-0"><button class="btn btn-link" type="button" data-toggle="collapse" data-target="#c${i}">${q}</button></h2></div>` +
        `<div id="c${i}" class="collapse" data-parent="#faq"><div class="card-body">${a}</div></div></div>`
      ).join("")
    }</div>`,
  );
  assert.deepEqual(entries(v4), QA);
});

Deno.test("script-driven panels folded with inline styles and aria-hidden", () => {
  const html = doc(
    QA.map(([q, a], i) =>
      `<div class="faq-item"><div class="faq-q" role="button" tabindex="0" aria-expanded="false" aria-controls="a${i}">${q}</div>` +
      `<div class="faq-a" id="a${i}" style="color: #333; display:none !important" aria-hidden="true"><p>${a}</p></div></div>`
    ).join(""),
  );
  assert.deepEqual(entries(html), QA);
});

const faqData = (qa: string[][]) =>
  `<script type="application/ld+json">${
    JSON.stringify({
      "@context": "https://schema.org",
      "@graph": [{ "@type": "WebPage", name: "FAQ" }, {
        "@type": "FAQPage",
        mainEntity: qa.map(([q, a]) => ({
          "@type": "Question",
          name: q,
          acceptedAnswer: { "@type": "Answer", text: `<p>${a}</p><script>alert(1)</script>` },
        })),
      }],
    }).replace(/</g, "\\u003c") // as a page writes it: "</script>" would end the element
  }</script>`;

Deno.test("FAQPage data marks plain question lines, shows their answers, adds what the page lacks", () => {
  const shown = QA.slice(0, 2); // the third entry is in the data only
  const html = doc(
    // A table of contents linking to the entries comes first; the entries' own lines win.
    `<ul>${shown.map(([q], i) => `<li><a href="#e${i}">${q}</a></li>`).join("")}</ul>` +
      shown.map(([q, a], i) =>
        `<div class="faq-entry" id="e${i}"><div class="faq-question">${q}</div>` +
        `<div class="faq-answer" style="display: none"><p>${a}</p></div></div>`
      ).join(""),
    faqData(QA),
  );
  assert.deepEqual(entries(html), QA);
  const page = extractPage(html, "https://loja.example/faq");
  assert.doesNotMatch(page.html, /<script|alert/, "an added answer carries no script");
});

Deno.test("FAQPage data alone: entries rendered by script in the browser are imported", () => {
  const html = `<!doctype html><html lang="pt-BR"><head><title>FAQ</title>${
    faqData(QA)
  }</head><body><div id="app"></div></body></html>`;
  assert.deepEqual(entries(html), QA);
});

Deno.test("a question whose text the parser splits at character references is still found", () => {
  const qa = [[
    'Por que 1 > 0 e "a" < "b"?',
    "Porque a comparação de textos segue a ordem dos códigos.",
  ]];
  const esc = (s: string) =>
    s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;");
  const html = doc(
    `<div class="faq-question">${esc(qa[0][0])}</div><div style="display:none"><p>${
      esc(qa[0][1])
    }</p></div>`,
    `<script type="application/ld+json">${
      JSON.stringify({
        "@type": "FAQPage",
        mainEntity: [{
          "@type": "Question",
          name: qa[0][0],
          acceptedAnswer: { "@type": "Answer", text: esc(qa[0][1]) },
        }],
      })
    }</script>`,
  );
  assert.deepEqual(entries(html), qa);
});

Deno.test("menus and dialogs a button discloses stay out; broken structured data is ignored", () => {
  const html = doc(
    `<button aria-expanded="false" aria-controls="m" aria-haspopup="true">Conta</button>` +
      `<ul id="m" hidden><li><a href="/sair">Sair da conta agora mesmo</a></li></ul>` +
      `<button aria-expanded="false" aria-controls="d">Ajuda?</button>` +
      `<div id="d" role="dialog" hidden><p>Janela de ajuda com um formulário.</p></div>` +
      `<h3><button aria-expanded="false" aria-controls="s0">${QA[0][0]}</button></h3>` +
      `<div id="s0" hidden><p>${QA[0][1]}</p></div>`,
    `<script type="application/ld+json">{"@type": "FAQPage", </script>`,
  );
  const page = extractPage(html, "https://loja.example/faq");
  assert.doesNotMatch(page.html, /Sair da conta|Janela de ajuda/);
  assert.deepEqual(entries(html), [QA[0]]);
});

Deno.test("tabbed FAQs: every tab's panel is imported under the tab's name", () => {
  const tabs = [["entrega", "Entrega", QA.slice(0, 2)], [
    "pagamento",
    "Pagamento",
    QA.slice(2),
  ]] as const;
  const html = doc(
    `<div role="tablist">${
      tabs.map(([id, name], i) =>
        `<button role="tab" aria-selected="${i === 0}" aria-controls="${id}">${name}</button>`
      ).join("")
    }</div>` +
      tabs.map(([id, , qa], i) =>
        `<div id="${id}" role="tabpanel"${i === 0 ? "" : " hidden"}>${
          qa.map(([q, a]) => `<h3>${q}</h3><p>${a}</p>`).join("")
        }</div>`
      ).join(""),
  );
  const page = extractPage(html, "https://loja.example/faq");
  const chunks = chunkMarkdown(toMarkdown(page.html, page.title)).filter((c) => c.path.length > 1);
  assert.deepEqual(chunks.map((c) => c.path.slice(1)), [
    ["Entrega", QA[0][0]],
    ["Entrega", QA[1][0]],
    ["Pagamento", QA[2][0]],
  ]);
  assert.deepEqual(chunks.map((c) => c.text.split("\n")[0]), QA.map(([, a]) => a));
});

Deno.test("accordion labels without a question mark: questions get it back, topics head their answer", () => {
  const items = [
    ["Como faço para trocar um produto", "Pela página Meus pedidos, em até trinta dias."],
    ["Prazos de entrega", "Cinco dias úteis para as capitais."],
    ["Formas de pagamento", "Cartão, boleto e Pix."],
  ];
  const html = doc(
    items.map(([q, a], i) =>
      `<div class="faq-item"><div class="faq-q" role="button" aria-expanded="false" aria-controls="a${i}">${q}</div>` +
      `<div id="a${i}" style="display:none"><p>${a}</p></div></div>`
    ).join(""),
  );
  const page = extractPage(html, "https://loja.example/faq");
  const chunks = chunkMarkdown(toMarkdown(page.html, page.title));
  const entry = chunks.find((c) => c.path.at(-1) === "Como faço para trocar um produto?");
  assert.equal(entry?.text, items[0][1]);
  // Each topic's answer stays in a section of its own, under its label.
  for (const [label, answer] of items.slice(1)) {
    const c = chunks.find((c) => c.text.includes(answer));
    assert.ok(c && (c.path.includes(label) || c.text.includes(`${label}\n\n${answer}`)), label);
    assert.ok(!c.text.includes(items[0][1]), "no other entry's answer is spliced in");
  }
});

Deno.test("FAQs toggled without ARIA: question buttons, and a CSS-only accordion's checkbox labels", () => {
  const buttons = doc(
    QA.map(([q, a]) =>
      `<div class="faq"><button class="faq-q" onclick="toggle(this)">${q}</button>` +
      `<div class="faq-a" style="display:none"><p>${a}</p></div></div>`
    ).join(""),
  );
  assert.deepEqual(entries(buttons), QA);
  const css = doc(
    QA.map(([q, a], i) =>
      `<div class="tab"><input type="checkbox" id="t${i}"><label class="tab-label" for="t${i}">${q}</label>` +
      `<div class="tab-content"><p>${a}</p></div></div>`
    ).join(""),
  );
  assert.deepEqual(entries(css), QA);
  // A page's other buttons are no questions and stay out.
  const page = extractPage(
    doc(`<p>Texto da página com conteúdo suficiente.</p><button>Comprar</button>`),
    "https://x/",
  );
  assert.doesNotMatch(page.html, /Comprar/);
});
