/**
 * Run by temp_test.ts in a `deno test` of its own: makes a folder and a KV file with the
 * helpers and reports their paths, which must be gone once this module ends.
 */
import { tempDir, tempKvPath } from "./temp.ts";

Deno.test("makes a folder with a file in it, and a KV file", async () => {
  const dir = tempDir({ prefix: "temp-check-" });
  await Deno.writeTextFile(`${dir}/note.txt`, "left for the cleanup");
  const path = tempKvPath();
  const kv = await Deno.openKv(path);
  await kv.set(["k"], "v");
  kv.close();
  await Deno.writeTextFile(Deno.env.get("TEMP_REPORT")!, JSON.stringify([dir, path]));
});
