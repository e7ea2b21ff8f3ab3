import assert from "node:assert/strict";
import { generateManifest } from "./manifest_gen.ts";
import { RouteNameError } from "./route_path.ts";
import { tempDir } from "@/tests/support/temp.ts";

async function project(files: Record<string, string>): Promise<URL> {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return new URL(`file://${dir}/`);
}

Deno.test("manifest: lists routes by specificity and islands, skipping tests", async () => {
  const root = await project({
    "routes/index.tsx": "",
    "routes/_app.tsx": "",
    "routes/blog/[slug].tsx": "",
    "routes/blog/new.tsx": "",
    "routes/[...rest].tsx": "",
    "routes/blog/new_test.ts": "",
    "islands/Counter.tsx": "",
  });
  const text = await generateManifest(root);
  assert.match(text, /import \* as \$0 from "\.\/routes\/_app\.tsx";/);
  const order = [...text.matchAll(/"(\S+\.tsx)": \$/g)].map((m) => m[1]);
  // Specific before general; the catch-all last (it also matches "/").
  assert.deepEqual(order, [
    "_app.tsx",
    "blog/new.tsx",
    "blog/[slug].tsx",
    "index.tsx",
    "[...rest].tsx",
  ]);
  assert.match(text, /import \$\$0 from "\.\/islands\/Counter\.tsx";/);
  assert.match(text, /Counter: \$\$0,/);
  assert.ok(!text.includes("new_test"));
  assert.equal(await generateManifest(root), text, "generation is deterministic");
});

Deno.test("manifest: ambiguous routes and bad island names fail with the file named", async () => {
  const ambiguous = await project({ "routes/[a].tsx": "", "routes/[b].tsx": "" });
  await assert.rejects(
    generateManifest(ambiguous),
    (e: unknown) => e instanceof RouteNameError && /\[a\]\.tsx/.test(e.message),
  );
  const lower = await project({ "islands/counter.tsx": "" });
  await assert.rejects(generateManifest(lower), /PascalCase/);
});

Deno.test("manifest: the committed fresh.gen.ts is current", async () => {
  const root = new URL("../../", import.meta.url);
  assert.equal(
    await Deno.readTextFile(new URL("fresh.gen.ts", root)),
    await generateManifest(root),
  );
});
