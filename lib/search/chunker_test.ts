import assert from "node:assert/strict";
import { CHUNK_MAX_WORDS, chunkMarkdown, FAQ_ENTRY_MAX_WORDS } from "./chunker.ts";
import { createSlugger, slugify } from "./slug.ts";

Deno.test("slugify folds accents and punctuation; the slugger numbers repeats", () => {
  assert.equal(slugify("Como funciona: o Streaming!"), "como-funciona-o-streaming");
  assert.equal(slugify("Informações & Ações"), "informacoes-acoes");
  assert.equal(slugify("???"), "section");
  const s = createSlugger();
  assert.deepEqual([s("Uso"), s("Uso"), s("Uso-1"), s("Uso")], [
    "uso",
    "uso-1",
    "uso-1-1",
    "uso-2",
  ]);
});

Deno.test("chunks follow headings, keep the heading path and strip markdown", () => {
  const words = (n: number, w: string) => Array(n).fill(w).join(" ");
  const md =
    `# Guia\n\n${words(200, "intro")}\n\n## Instalação\n\n${
      words(160, "passo")
    } com [link](https://x) e \`code\`.\n\n` +
    "```\n# não é título\n```\n";
  const chunks = chunkMarkdown(md);
  assert.deepEqual(chunks.map((c) => [c.path, c.anchor]), [[["Guia"], "guia"], [[
    "Guia",
    "Instalação",
  ], "instalacao"]]);
  assert.match(chunks[1].text, /com link e code\./);
  assert.match(chunks[1].text, /# não é título/);
});

Deno.test("long sections are split, short parents merge into their subsection", () => {
  const long = Array.from({ length: 8 }, (_, i) => Array(100).fill(`p${i}`).join(" ")).join("\n\n");
  const chunks = chunkMarkdown(`# A\n\nCurto.\n\n## B\n\n${long}\n`);
  assert.ok(chunks.length >= 3);
  for (const c of chunks) assert.ok(c.text.split(/\s+/).length <= CHUNK_MAX_WORDS + 5);
  const merged = chunkMarkdown("# A\n\nCurto.\n\n## B\n\nTambém curto.\n");
  assert.equal(merged.length, 1);
  assert.equal(merged[0].anchor, "a");
  assert.match(merged[0].text, /Curto\.\n\nB\n\nTambém curto\./);
});

Deno.test("FAQ entries stay one passage each: question headings and bold question lines", () => {
  const chunks = chunkMarkdown(`# Perguntas frequentes

## Sobre o uso

### Posso parar uma resposta?

Sim. O botão vira um botão de parar.

### Perco a resposta se recarregar?

Não. O servidor guarda a resposta.

## Conta

**Preciso criar uma conta?**

Não. Basta abrir o chat.

**Meus dados ficam guardados?**

Por 30 dias.
`);
  assert.deepEqual(chunks.map((c) => [c.path.at(-1), c.text]), [
    ["Posso parar uma resposta?", "Sim. O botão vira um botão de parar."],
    ["Perco a resposta se recarregar?", "Não. O servidor guarda a resposta."],
    ["Preciso criar uma conta?", "Não. Basta abrir o chat."],
    ["Meus dados ficam guardados?", "Por 30 dias."],
  ]);
});

Deno.test("FAQ entries written inline: a bold question leading its answer, Q:/A: and P:/R: lines", () => {
  const entries = (md: string) => chunkMarkdown(md).map((c) => [c.path.at(-1), c.text]);
  assert.deepEqual(
    entries(
      "# Ajuda\n\n**Preciso criar uma conta?** Não. Basta abrir o chat.\n\n" +
        "**Quanto custa?** R: Nada, é gratuito.\n",
    ),
    [["Preciso criar uma conta?", "Não. Basta abrir o chat."], [
      "Quanto custa?",
      "Nada, é gratuito.",
    ]],
  );
  assert.deepEqual(
    entries(
      "# Help\n\nQ: Do I need an account?\nA: No. Just open the chat.\n\n" +
        "**Q: Is it free?**\n\n**A:** Yes, it costs nothing.\n",
    ),
    [["Do I need an account?", "No. Just open the chat."], [
      "Is it free?",
      "Yes, it costs nothing.",
    ]],
  );
  assert.deepEqual(
    entries("# Dúvidas\n\nPergunta: Vocês entregam no sábado?\n\nResposta: Sim, até as 14h.\n"),
    [["Vocês entregam no sábado?", "Sim, até as 14h."]],
  );
  // A bold, numbered label, and the answer on the next line (a <br> in the page).
  assert.deepEqual(
    entries(
      "# Dúvidas\n\n**Pergunta 1:** Vocês entregam no sábado?  \n**Resposta:** Sim, até as 14h.\n",
    ),
    [["Vocês entregam no sábado?", "Sim, até as 14h."]],
  );
  // A bold phrase that is no question, and a question inside a sentence, open nothing.
  assert.deepEqual(
    entries("# Notas\n\n**Importante:** leia antes. Quer saber mais? Escreva.\n").map((e) => e[0]),
    ["Notas"],
  );
});

Deno.test("an FAQ page's headings that read as questions are entries, question mark or not", () => {
  const md =
    "# Perguntas frequentes\n\n## Pedidos\n\n### Como cancelo um pedido\n\nPela página Meus pedidos.\n\n" +
    "### Posso trocar o endereço de entrega\n\nSim, até o envio.\n";
  assert.deepEqual(chunkMarkdown(md).map((c) => [c.path.at(-1), c.text]), [
    ["Como cancelo um pedido?", "Pela página Meus pedidos."],
    ["Posso trocar o endereço de entrega?", "Sim, até o envio."],
  ]);
  // On any other page a heading is a heading: "Como funciona" is a section, merged as such.
  const guide = chunkMarkdown("# Guia\n\n## Como funciona\n\nO chat busca nas páginas.\n");
  assert.ok(guide.every((c) => c.path.every((h) => !h.endsWith("?"))), JSON.stringify(guide));
});

Deno.test("a table is read row by row, each cell under its header; a short announced list joins its line", () => {
  const md = "# Frete\n\n## Quanto custa o frete?\n\nO frete depende da região:\n\n" +
    "| Região | Prazo | Frete |\n|---|---|---|\n| Sudeste | 3 dias úteis | R$ 15 |\n| Sul | 5 dias úteis | |\n\n" +
    "## Quais formas de pagamento vocês aceitam?\n\nAceitamos:\n\n- Cartão de crédito em até 12x;\n- Pix, com 5% de desconto.\n\n" +
    "## Como troco um produto?\n\n1. Entre em Meus pedidos.\n2. Clique em Trocar.\n";
  assert.deepEqual(chunkMarkdown(md).map((c) => c.text), [
    "O frete depende da região:\n\nSudeste — Prazo: 3 dias úteis; Frete: R$ 15\n\nSul — Prazo: 5 dias úteis",
    "Aceitamos: Cartão de crédito em até 12x; Pix, com 5% de desconto.",
    // Steps announced by no line stay one paragraph each.
    "Entre em Meus pedidos.\n\nClique em Trocar.",
  ]);
  // A list too long to quote as one sentence keeps its items apart.
  const long = Array.from({ length: 12 }, (_, i) => `- Item ${i}`).join("\n");
  assert.equal(chunkMarkdown(`# Lista\n\nTemos:\n\n${long}\n`)[0].text.split("\n\n").length, 13);
});

Deno.test("a long FAQ entry stays one passage, as a long section does not", () => {
  const sentences = (n: number) =>
    Array.from({ length: n / 10 }, (_, i) => `Frase ${i} com mais oito palavras de texto aqui.`)
      .join(" ");
  const entry = chunkMarkdown(`# FAQ\n\n## Como funciona a cópia?\n\n${sentences(600)}\n`);
  assert.equal(entry.length, 1);
  assert.ok(entry[0].text.startsWith("Frase 0 "));
  assert.ok(chunkMarkdown(`# Guia\n\n## Cópia\n\n${sentences(600)}\n`).length > 1);
  // Past FAQ_ENTRY_MAX_WORDS an entry is split too: no passage grows without bound.
  const huge = chunkMarkdown(
    `# FAQ\n\n## Como funciona a cópia?\n\n${sentences(FAQ_ENTRY_MAX_WORDS * 2)}\n`,
  );
  assert.ok(
    huge.length >= 2 && huge.every((c) => c.text.split(/\s+/).length <= FAQ_ENTRY_MAX_WORDS + 10),
  );
});

Deno.test("a one-line code block a sentence runs through goes back into its sentence", () => {
  // As documentation generators lay out a command inside a sentence (the Debian FAQ).
  const [chunk] = chunkMarkdown(
    "## How can I check my version?\n\nTo be sure, use the\n\n```\nlsb_release -a\n```\n\n" +
      "command. It shows the release.\n\nTo list them:\n\n```\ndpkg -l\n```\n\n" +
      "Then:\n\n```\n$ lsb_release -a\nRelease: 12\n```\n\nwhich prints two lines.\n\n" +
      "Em português, use o comando\n\n```\nlsb_release -a\n```\n\n. Este irá mostrar a versão.\n",
  );
  assert.deepEqual(chunk.text.split("\n\n"), [
    "To be sure, use the lsb_release -a command. It shows the release.",
    // After a ":" the command is announced, not inside a sentence; two lines are an example.
    "To list them:",
    "dpkg -l",
    "Then:",
    "$ lsb_release -a\nRelease: 12",
    "which prints two lines.",
    // The translation ends its sentence with the command: the stop comes after it.
    "Em português, use o comando lsb_release -a. Este irá mostrar a versão.",
  ]);
});
