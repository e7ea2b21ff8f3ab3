import assert from "node:assert/strict";
import { buildWidget } from "./build.ts";

const root = new URL("../../", import.meta.url);
/** The budget for the loader other sites download: 15 KB gzip. */
const LOADER_BUDGET_GZIP = 15 * 1024;

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

Deno.test("widget.js: within 15 KB gzip, a classic script with no server code", async () => {
  const outDir = new URL(`file://${await Deno.makeTempDir()}/`);
  try {
    const built = await buildWidget(root, { outDir });
    for (const file of Object.values(built)) {
      const bytes = await Deno.readFile(file);
      const text = new TextDecoder().decode(bytes);
      // Loaded with a plain <script> on other sites: no module syntax, everything in an IIFE.
      assert.match(text, /^\(\(\)=>\{/, `${file.pathname} is one IIFE`);
      assert.doesNotMatch(text, /(^|[;}])\s*(import|export)\s*[{*\w]/, file.pathname);
      assert.doesNotMatch(text, /Deno\.|SESSION_SECRET|lib\/store\//, file.pathname);
    }
    const loader = await Deno.readFile(built["widget.js"]);
    const gzip = await gzipSize(loader);
    console.log(`widget.js: ${loader.byteLength} B, ${gzip} B gzip`);
    assert.ok(gzip <= LOADER_BUDGET_GZIP, `widget.js is ${gzip} B gzip, over 15 KB`);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
