/** Part of `deno task check`: fails when fresh.gen.ts does not match routes/ and islands/. */
import { generateManifest } from "@/lib/http/manifest_gen.ts";

const root = new URL("../", import.meta.url);
const expected = await generateManifest(root);
const actual = await Deno.readTextFile(new URL("fresh.gen.ts", root)).catch(() => "");
if (expected !== actual) {
  console.error("fresh.gen.ts is stale: run `deno task build` and commit the result.");
  Deno.exit(1);
}
console.log("fresh.gen.ts is up to date.");
