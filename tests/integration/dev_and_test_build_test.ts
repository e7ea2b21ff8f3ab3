/**
 * `deno task dev` and `deno task test` run side by side: the test task builds into its own
 * assets folder, so the dev server keeps serving every bundle it linked while a test build
 * runs (a build into the dev server's folder pruned them, and its pages then 404ed).
 */
import assert from "node:assert/strict";
import { assetsDir } from "@/lib/islands/assets_dir.ts";
import { buildIslands } from "@/lib/islands/build.ts";
import { buildWidget } from "@/lib/widget/build.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { testConfig } from "../support/chat_client.ts";
import { tempDir } from "../support/temp.ts";

const ROOT = new URL("../../", import.meta.url);
const STATIC = new URL("static/", ROOT);

/** The ASSETS_DIR a deno.json task exports before it builds, or null. */
async function taskAssetsDir(task: string): Promise<string | null> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const command: string = config.tasks[task];
  return /\bASSETS_DIR=(\S+)/.exec(command.split("scripts/build.ts")[0])?.[1] ?? null;
}

/** Every bundle file the dev folder holds, as the URL paths the server answers. */
async function bundlePaths(dir: URL): Promise<string[]> {
  const paths = ["/widget.js", "/widget_frame.js"];
  for await (const entry of Deno.readDir(new URL("_islands/", dir))) {
    if (entry.isFile) paths.push(`/_islands/${entry.name}`);
  }
  return paths;
}

/** Fetches every path; returns those that did not answer 200. */
async function missing(server: TestServer, paths: string[]): Promise<string[]> {
  const bad: string[] = [];
  for (const path of paths) {
    const res = await fetch(server.url + path);
    await res.body?.cancel();
    if (res.status !== 200) bad.push(`${path}: ${res.status}`);
  }
  return bad;
}

for (const task of ["test", "test:e2e"]) {
  Deno.test(`dev and test: \`deno task ${task}\` builds outside dev's static/`, async () => {
    const dir = await taskAssetsDir(task);
    assert.ok(dir, `the "${task}" task exports no ASSETS_DIR before it builds`);
    assert.notEqual(assetsDir(ROOT, dir).href, STATIC.href);
  });
}

Deno.test("dev and test: a dev server serves every bundle while a test build runs", async () => {
  // The dev server's bundles, built as dev.ts builds them (unminified), in a folder of its own.
  const devDir = new URL(`file://${tempDir({ prefix: "dev-assets-" })}/`);
  await buildIslands(ROOT, { minify: false, outDir: new URL("_islands/", devDir) });
  await buildWidget(ROOT, { minify: false, outDir: devDir });
  const server = await startTestServer({ dev: true, assetsDir: devDir, config: testConfig() });
  try {
    const page = await (await fetch(server.url + "/")).text();
    const linked = [...page.matchAll(/"(\/_islands\/[^"]+\.js)"/g)].map((m) => m[1]);
    assert.ok(linked.length > 1, "the home page links its island bundles");
    const paths = [...new Set([...linked, ...await bundlePaths(devDir)])];
    assert.deepEqual(await missing(server, paths), []);

    // The test task's build (minified: other hashes), with the test task's ASSETS_DIR pointed
    // at a temporary folder so this test leaves the suite's own build alone.
    const testDir = tempDir({ prefix: "test-assets-" });
    const build = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/build.ts", "--no-index"],
      cwd: ROOT,
      env: { ASSETS_DIR: testDir },
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let rounds = 0;
    let result: Deno.CommandOutput | null = null;
    const done = build.output().then((out) => result = out);
    const during: string[] = [];
    while (!result) {
      during.push(...await missing(server, paths));
      rounds++;
      await Promise.race([done, new Promise((r) => setTimeout(r, 50))]);
    }
    const out = result as Deno.CommandOutput;
    assert.ok(out.success, `the test build failed: ${new TextDecoder().decode(out.stderr)}`);
    assert.ok(rounds > 0);
    assert.deepEqual(during, [], "bundles missing while the test build ran");
    assert.deepEqual(await missing(server, paths), [], "bundles missing after the test build");
    // The test build went to its own folder, complete.
    const built = JSON.parse(await Deno.readTextFile(`${testDir}/_islands/manifest.json`));
    assert.ok(built.boot && built.islands.ChatMessages);
    await Deno.stat(`${testDir}/widget.js`);
  } finally {
    await server.close();
  }
});
