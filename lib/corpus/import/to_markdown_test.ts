import assert from "node:assert/strict";
import { toMarkdown } from "./to_markdown.ts";
import { chunkMarkdown } from "@/lib/search/chunker.ts";

Deno.test("FAQ questions in <summary> and <dt> become FAQ entries of their own", () => {
  const markdown = toMarkdown(
    `<h2>Conta</h2>
    <details><summary>Preciso criar uma conta?</summary><p>Não. Basta abrir o chat.</p></details>
    <dl><dt>Meus dados ficam guardados?</dt><dd><p>Por 30 dias.</p></dd>
    <dt>Glossário</dt><dd>Termos usados.</dd></dl>`,
    "Ajuda",
  );
  assert.match(markdown, /^\*\*Preciso criar uma conta\?\*\*$/m);
  assert.match(markdown, /^\*\*Meus dados ficam guardados\?\*\*$/m);
  // A <dt> that is no question stays text.
  assert.doesNotMatch(markdown, /\*\*Glossário\*\*/);
  const entries = chunkMarkdown(markdown).map((c) => [c.path.at(-1), c.text.split("\n")[0]]);
  assert.deepEqual(entries, [
    ["Preciso criar uma conta?", "Não. Basta abrir o chat."],
    ["Meus dados ficam guardados?", "Por 30 dias."],
  ]);
});

Deno.test("an HTML table becomes a markdown table, read row by row", () => {
  const markdown = toMarkdown(
    `<h2>Quanto custa o frete?</h2><table><thead><tr><th>Região</th><th>Frete</th></tr></thead>` +
      `<tbody><tr><td>Sul</td><td>R$ 20</td></tr><tr><td>Norte</td><td>R$ 35</td></tr></tbody></table>`,
    "Ajuda",
  );
  assert.match(markdown, /^\| Sul \| R\$ 20 \|$/m);
  assert.deepEqual(chunkMarkdown(markdown).map((c) => c.text), [
    "Sul — Frete: R$ 20\n\nNorte — Frete: R$ 35",
  ]);
});

Deno.test("a <pre> with no <code> inside is a code block, its text as written", () => {
  // DocBook's output: the command inside a sentence, a replaceable part in <em><code>.
  const markdown = toMarkdown(
    `<h2>How can I check what version I run?</h2><p>Use the</p>` +
      `<pre class="screen">\nlsb_release -a\n</pre><p>command. To remove a kernel:</p>` +
      `<pre class="screen">dpkg --purge linux-image-<em><code>NNN</code></em>\n</pre>` +
      `<pre><code>x = 1\n</code></pre><pre>a \`\`\` fence</pre>`,
    "FAQ",
  );
  assert.match(markdown, /^```\nlsb_release -a\n```$/m);
  assert.match(markdown, /^```\ndpkg --purge linux-image-NNN\n```$/m);
  assert.match(markdown, /^```\nx = 1\n```$/m);
  // A fence inside the code takes a longer one around it.
  assert.match(markdown, /^````\na ``` fence\n````$/m);
  assert.doesNotMatch(markdown, /\\_/);
});
