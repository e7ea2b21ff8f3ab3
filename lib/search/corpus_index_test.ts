import assert from "node:assert/strict";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { indexCorpus } from "./corpus_index.ts";
import type { Embedder } from "./embedder.ts";
import { ManifestError } from "./errors.ts";
import { loadSiteSearch } from "./mod.ts";
import { tempDir } from "@/tests/support/temp.ts";

const FIXTURE = fileURLToPath(new URL("./testdata/corpus", import.meta.url));

function copyFixture(): { dir: string; out: string; manifest: () => Record<string, unknown>[] } {
  const root = tempDir();
  const dir = join(root, "corpus");
  cpSync(FIXTURE, dir, { recursive: true });
  return {
    dir,
    out: join(root, "build", "index.bin"),
    manifest: () => JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")),
  };
}

function editManifest(dir: string, edit: (m: Record<string, unknown>[]) => void) {
  const path = join(dir, "manifest.json");
  const m = JSON.parse(readFileSync(path, "utf8"));
  edit(m);
  writeFileSync(path, JSON.stringify(m));
}

const failures: Array<[string, (dir: string) => void, RegExp]> = [
  [
    "missing file",
    (dir) => Deno.removeSync(join(dir, "about.md")),
    /Missing file ".*about\.md".*add the file or remove the entry/,
  ],
  [
    "checksum mismatch",
    (dir) => writeFileSync(join(dir, "sobre.md"), "# Editado\n"),
    /Checksum mismatch for ".*sobre\.md".*update "sha256"/,
  ],
  [
    "missing license",
    (dir) => editManifest(dir, (m) => delete m[2].license),
    /\("notas"\).*no license: add "license"/,
  ],
  [
    "duplicate id",
    (dir) => editManifest(dir, (m) => m[1].id = "sobre"),
    /Duplicate id "sobre".*make ids unique/,
  ],
  [
    "translationOf naming no document",
    (dir) => editManifest(dir, (m) => m[1].translationOf = "sobre-antigo"),
    /"about".*translationOf "sobre-antigo", which is no document's id/,
  ],
  [
    "translationOf in the same language",
    (dir) => editManifest(dir, (m) => m[2].translationOf = "sobre"),
    /"notas".*translationOf "sobre", which is in the same language \("pt"\)/,
  ],
];

for (const [name, breakIt, message] of failures) {
  Deno.test(`index refuses a corpus with a ${name} and writes nothing`, async () => {
    const { dir, out } = copyFixture();
    breakIt(dir);
    await assert.rejects(() => indexCorpus({ corpusDir: dir, outPath: out }), (e) => {
      assert.ok(e instanceof ManifestError);
      assert.match(e.message, message);
      assert.match(e.message, /nothing was written/);
      return true;
    });
    assert.equal(existsSync(out), false);
  });
}

/** A deterministic bag-of-words embedder: similar words, similar vectors. */
function fakeEmbedder(model = "fake:bow", fail = false): Embedder & { calls: number } {
  const dims = 64;
  const e = {
    model,
    calls: 0,
    embed(values: string[]) {
      e.calls++;
      if (fail) return Promise.reject(new Error("Provider down"));
      return Promise.resolve(values.map((v) => {
        const out = new Float32Array(dims);
        for (const w of v.toLowerCase().match(/\p{L}+/gu) ?? []) {
          let h = 2166136261;
          for (const ch of w.slice(0, 5)) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
          out[(h >>> 0) % dims] += 1;
        }
        return out;
      }));
    },
  };
  return e;
}

Deno.test("the fixture corpus indexes; passages carry anchors, numbers only with a URL", async () => {
  const { dir, out } = copyFixture();
  const { header } = await indexCorpus({ corpusDir: dir, outPath: out });
  assert.equal(header.counts.documents, 3);
  assert.equal(header.embedding, null);
  const s = loadSiteSearch({ assetPath: out });
  const r = await s.search("lista de verificação antes de publicar e privacidade", { k: 5 });
  assert.equal(r.mode, "lexical");
  const notas = r.passages.find((p) => p.id.startsWith("notas#"))!;
  assert.equal(notas.url, null);
  assert.equal(notas.n, undefined);
  const numbered = r.passages.filter((p) => p.url);
  assert.deepEqual(numbered.map((p) => p.n), numbered.map((_, i) => i + 1));
  const priv = r.passages.find((p) => p.id === "sobre#privacidade")!;
  assert.equal(priv.url, "/sobre#privacidade");
  assert.equal(priv.title, "Sobre o assistente › Privacidade");
});

Deno.test("the manifest's translationOf pairs reach the index header", async () => {
  const { dir, out } = copyFixture();
  editManifest(dir, (m) => m[1].translationOf = "sobre");
  const { header } = await indexCorpus({ corpusDir: dir, outPath: out });
  assert.deepEqual(header.translations, { about: "sobre" });
  const s = loadSiteSearch({ assetPath: out });
  assert.equal(s.status().status, "ok");
});

Deno.test("hybrid: vectors at index time, RRF at query time, lexical fallback on failure", async () => {
  const { dir, out } = copyFixture();
  const embedder = fakeEmbedder();
  const { header } = await indexCorpus({ corpusDir: dir, outPath: out, embedder });
  assert.deepEqual(header.embedding, { model: "fake:bow", dims: 64 });
  const s = loadSiteSearch({ assetPath: out, embedder });
  assert.equal(s.status().status, "ok");
  assert.equal((s.status() as { mode: string }).mode, "hybrid");
  const r = await s.search("privacy of chats", { k: 3 });
  assert.equal(r.mode, "hybrid");
  assert.equal(r.passages[0].id, "about#privacy");
  assert.equal(r.passages[0].ranks.bm25, 1);
  assert.equal(r.passages[0].ranks.dense, 1);
  assert.equal(r.passages[0].score, 2 / 61);
  const calls = embedder.calls;
  await s.search("privacy of chats", { k: 3 });
  assert.equal(embedder.calls, calls, "the query vector is cached");

  const errors: unknown[] = [];
  const down = loadSiteSearch({
    assetPath: out,
    embedder: fakeEmbedder("fake:bow", true),
    onEmbedError: (e) => errors.push(e),
  });
  const fallback = await down.search("privacy of chats", { k: 3 });
  assert.equal(fallback.mode, "lexical");
  assert.equal(fallback.passages[0].id, "about#privacy");
  assert.equal(errors.length, 1);

  const other = loadSiteSearch({ assetPath: out, embedder: fakeEmbedder("fake:other") });
  assert.equal((await other.search("privacy", { k: 1 })).mode, "lexical");
});

Deno.test("passage(id): the stored passage by id, null for an unknown id or a missing index", async () => {
  const { dir, out } = copyFixture();
  await indexCorpus({ corpusDir: dir, outPath: out });
  const s = loadSiteSearch({ assetPath: out });
  const r = await s.search("lista de verificação antes de publicar", { k: 5 });
  const notas = r.passages.find((p) => p.id.startsWith("notas#"))!;
  assert.deepEqual(s.passage(notas.id), {
    id: notas.id,
    title: notas.title,
    url: null,
    lang: "pt",
    text: notas.text,
  });
  assert.equal(s.passage("sobre#privacidade")?.url, "/sobre#privacidade");
  assert.equal(s.passage("notas#nao-existe"), null);
  assert.equal(loadSiteSearch({ assetPath: out + ".missing" }).passage(notas.id), null);
});

Deno.test("the demo FAQ: every question is one passage whose title ends with it", async () => {
  const { corpusPassages } = await import("./corpus_index.ts");
  const { loadCorpus } = await import("./manifest.ts");
  const root = fileURLToPath(new URL("../../corpus/", import.meta.url));
  const docs = await loadCorpus(root);
  const faq = readFileSync(join(root, "pt/perguntas-frequentes.md"), "utf8");
  const questions = [...faq.matchAll(/^### (.+\?)$/gm)].map((m) => m[1]);
  assert.ok(questions.length >= 10);
  const passages = corpusPassages(docs).filter((p) => p.docId === "perguntas-frequentes");
  for (const q of questions) {
    const own = passages.filter((p) => p.title.endsWith(`› ${q}`));
    assert.equal(own.length, 1, `"${q}" is one passage`);
    // Its text is its own answer only: no other question's heading inside.
    for (const other of questions) if (other !== q) assert.ok(!own[0].text.includes(other));
  }
});
