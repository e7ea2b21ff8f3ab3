import assert from "node:assert/strict";
import { indexIsStale } from "./build.ts";
import { writeAsset } from "@/lib/search/asset.ts";
import { buildIndexData } from "@/lib/search/index_data.ts";

/** A project folder with one corpus file and, unless `analyzer` is null, an index built after it. */
async function project(analyzer?: string | null): Promise<URL> {
  const dir = new URL(`file://${await Deno.makeTempDir()}/`);
  await Deno.mkdir(new URL("corpus/", dir));
  await Deno.writeTextFile(new URL("corpus/a.md", dir), "# A\n\nTexto.");
  // The index task and a module of it (as scripts/index_corpus.ts imports the chunker).
  await Deno.mkdir(new URL("scripts/", dir));
  await Deno.mkdir(new URL("lib/", dir));
  await Deno.writeTextFile(new URL("lib/chunker.ts", dir), "export const SIZE = 350;\n");
  await Deno.writeTextFile(
    new URL("scripts/index_corpus.ts", dir),
    'import { SIZE } from "../lib/chunker.ts";\nconsole.log(SIZE);\n',
  );
  await new Promise((r) => setTimeout(r, 20)); // the index's mtime after the corpus's
  if (analyzer === null) return dir;
  const data = buildIndexData([
    { id: "a#a", docId: "a", title: "A", url: null, lang: "pt", text: "Texto." },
  ]);
  const header = analyzer ? { ...data.header, analyzer } : data.header;
  await Deno.mkdir(new URL("build/search/", dir), { recursive: true });
  await Deno.writeFile(new URL("build/search/index.bin", dir), writeAsset({ ...data, header }));
  return dir;
}

Deno.test("dev rebuilds the index when it is missing or built by another analyzer, not otherwise", async () => {
  assert.equal(await indexIsStale(await project()), false);
  assert.equal(await indexIsStale(await project(null)), true);
  // A pull that changed the analysis: the server would refuse this asset and search nothing.
  assert.equal(await indexIsStale(await project("nfkc-fold-snowball-stop:v1")), true);
});

Deno.test("dev rebuilds the index when a corpus file is newer", async () => {
  const dir = await project();
  await new Promise((r) => setTimeout(r, 20));
  await Deno.writeTextFile(new URL("corpus/b.md", dir), "# B\n\nOutro.");
  assert.equal(await indexIsStale(dir), true);
});

Deno.test("dev rebuilds the index when a module the index task runs is newer", async () => {
  const dir = await project();
  assert.equal(await indexIsStale(dir), false);
  await new Promise((r) => setTimeout(r, 20));
  // A pull that changed how pages are cut into passages, the analyzer's id unchanged.
  await Deno.writeTextFile(new URL("lib/chunker.ts", dir), "export const SIZE = 1000;\n");
  assert.equal(await indexIsStale(dir), true);
});

Deno.test("dev rebuilds an index asset cut off or overwritten, read from its header alone", async () => {
  const dir = await project();
  const path = new URL("build/search/index.bin", dir);
  const whole = await Deno.readFile(path);
  await Deno.writeFile(path, whole.subarray(0, whole.length - 8)); // an interrupted copy
  assert.equal(await indexIsStale(dir), true);
  await Deno.writeFile(path, new TextEncoder().encode("<html>404</html>"));
  assert.equal(await indexIsStale(dir), true);
  await Deno.writeFile(path, new Uint8Array());
  assert.equal(await indexIsStale(dir), true);
});
