import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkCorpus } from "./check.ts";
import { tempDir } from "@/tests/support/temp.ts";

const para = (seed: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${seed}${i % 7} palavra${i}`).join(" ");

function corpus(
  docs: Array<{ id: string; url: string | null; md: string; license?: string }>,
): string {
  const dir = tempDir({ prefix: "corpus-check-" });
  const manifest = docs.map((d) => {
    writeFileSync(join(dir, `${d.id}.md`), d.md);
    return {
      id: d.id,
      path: `${d.id}.md`,
      title: d.id,
      url: d.url,
      lang: "pt",
      source: "t",
      license: d.license ?? "CC0",
      sha256: "x",
    };
  });
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
  return dir;
}

Deno.test("corpus:check finds broken links, missing licenses, duplicates and odd passage sizes", async () => {
  const shared = para("igual", 120);
  const dir = corpus([
    {
      id: "a",
      url: "https://site.example/a",
      md: `# A\n\n## Uso\n\n${
        para("alfa", 60)
      } [ok](/b#detalhes) [fora](https://outro.example/x) [quebrado](/nao-existe) [sem ancora](/b#nada) [relativo](b)\n`,
    },
    { id: "b", url: "https://site.example/b/", md: `# B\n\n## Detalhes\n\n${shared}\n` },
    {
      id: "c",
      url: "https://site.example/c",
      md: `# C\n\n## Detalhes\n\n${shared}\n`,
      license: "",
    },
    {
      id: "d",
      url: "https://site.example/d",
      md: `# D\n\n${shared.replace("igual0 palavra0", "outra coisa")}\n`,
    },
    { id: "e", url: null, md: `# E\n\nCurto demais.\n\n## Longo\n\n${para("longo", 400)}\n` },
  ]);
  const findings = await checkCorpus({ corpusDir: dir, maxWords: 300 });
  const lines = findings.map((f) => `${f.severity} ${f.kind} ${f.where}: ${f.detail}`);
  assert.deepEqual(lines.filter((l) => l.includes("broken-link")), [
    `error broken-link a: link "/nao-existe" names no document of the corpus`,
    `error broken-link a: link "/b#nada": "b" has no heading "#nada"`,
  ]);
  assert.ok(lines.includes(`error no-license c: no license: add "license" to its manifest entry`));
  const has = (re: RegExp) => assert.ok(lines.some((l) => re.test(l)), lines.join("\n"));
  has(/^error duplicate c#\S+: same text as "b#\S+"$/);
  has(/^warning near-duplicate d#\S+: 9\d% like "b#\S+"$/);
  has(/^warning too-short e#\S+: 2 words \(under 25\)$/);
  has(/^warning too-long e#longo\S*: 3\d\d words \(over 300\)$/);
});

Deno.test("corpus:check --online reports document URLs that no longer answer", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/vivo"
        ? new Response("ok")
        : new Response("no", { status: 404 }),
  );
  const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  try {
    const text = `# T\n\n${para("texto", 60)}\n`;
    const dir = corpus([
      { id: "vivo", url: `${origin}/vivo`, md: text },
      { id: "morto", url: `${origin}/morto`, md: text.replace("texto0", "outro") },
      { id: "relativo", url: "/sobre/x", md: text.replace("texto1", "mais") },
    ]);
    const offline = await checkCorpus({ corpusDir: dir });
    assert.equal(offline.filter((f) => f.kind === "unreachable").length, 0);
    const online = await checkCorpus({ corpusDir: dir, online: true, baseUrl: origin });
    assert.deepEqual(
      online.filter((f) => f.kind === "unreachable").map((f) => `${f.where}: ${f.detail}`),
      [
        `morto: "${origin}/morto" answers 404`,
        `relativo: "${origin}/sobre/x" answers 404`,
      ],
    );
  } finally {
    await server.shutdown();
  }
});
