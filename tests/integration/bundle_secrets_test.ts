/**
 * Builds the island bundles into a temporary folder and fails if server-only
 * code (KV, environment access, provider SDKs, the search engine, the store) or
 * the value of any environment variable ends up in what browsers download.
 */
import assert from "node:assert/strict";
import { buildIslands } from "@/lib/islands/build.ts";

const root = new URL("../../", import.meta.url);

const SERVER_ONLY = [
  /Deno\.openKv/,
  /Deno\.env/,
  /Deno\.readFile/,
  /@ai-sdk\/openai/,
  /@ai-sdk\/google/,
  /api\.openai\.com/,
  /generativelanguage\.googleapis\.com/,
  /SESSION_SECRET/,
  /OPENAI_API_KEY/,
  /preact-render-to-string/,
  /lib\/search\//,
  /lib\/store\//,
];

Deno.test("island bundles contain no server-only code and no environment values", async () => {
  const outDir = new URL(`file://${await Deno.makeTempDir()}/`);
  const canary = `canary-${crypto.randomUUID()}`;
  Deno.env.set("BUNDLE_TEST_CANARY", canary);
  try {
    const assets = await buildIslands(root, { outDir });
    assert.ok(Object.keys(assets.islands).length > 0, "at least one island was built");
    const secrets = Object.entries(Deno.env.toObject())
      .filter(([k, v]) => v.length >= 12 && /KEY|TOKEN|SECRET|PASSWORD|CANARY/i.test(k))
      .map(([, v]) => v);
    assert.ok(secrets.includes(canary));
    let files = 0;
    for (const entry of Deno.readDirSync(outDir)) {
      if (!entry.name.endsWith(".js")) continue;
      files++;
      const text = await Deno.readTextFile(new URL(entry.name, outDir));
      for (const pattern of SERVER_ONLY) {
        assert.doesNotMatch(text, pattern, `${entry.name} contains ${pattern}`);
      }
      for (const value of secrets) {
        assert.ok(!text.includes(value), `${entry.name} contains an environment value`);
      }
    }
    assert.ok(files >= 2);
  } finally {
    Deno.env.delete("BUNDLE_TEST_CANARY");
    await Deno.remove(outDir, { recursive: true });
  }
});
