/**
 * Local entry (`deno task dev`): regenerates the route manifest, bundles the
 * islands, builds the search index when the corpus or a module the index task runs changed, or
 * this server cannot read it (built by an older analyzer), then serves on
 * PORT (default 8000). The task runs it under `--watch`, so an edit to routes,
 * islands, components, lib or corpus restarts it with fresh bundles.
 */
import {
  indexIsStale,
  removeLegacyIndex,
  writeManifest,
  writeSuggestions,
} from "./scripts/build.ts";
import { buildIslands } from "@/lib/islands/build.ts";
import { buildWidget } from "@/lib/widget/build.ts";

const root = new URL("./", import.meta.url);

const t0 = performance.now();
if (await writeManifest()) console.log("fresh.gen.ts regenerated (routes or islands changed).");
await buildIslands(root, { minify: false });
await buildWidget(root, { minify: false });
if (await removeLegacyIndex()) {
  console.log("Removed static/search/index.bin (the index is in build/).");
}
if (await indexIsStale()) {
  const out = await new Deno.Command(Deno.execPath(), { args: ["task", "-q", "index"], cwd: root })
    .output();
  const said = new TextDecoder().decode(out.stderr).trim();
  if (!out.success) {
    console.error(
      `The search index could not be built; search will report itself unavailable.\n${said}`,
    );
  } else if (said) console.error(said); // warnings, e.g. documents the chat cannot cite
  // The corpus may have changed: so may the questions it suggests.
  await writeSuggestions();
}
console.log(`Ready in ${Math.round(performance.now() - t0)} ms`);

const { createServerApp } = await import("@/lib/server.ts");
const { app, warmUp } = await createServerApp({ dev: true });
const { warmAfterFirstResponse } = await import("@/lib/chat/lazy.ts");
const port = Number(Deno.env.get("PORT") ?? 8000);
Deno.serve(
  { port, onListen: () => console.log(`Assistant running on http://localhost:${port}/`) },
  warmAfterFirstResponse(app, warmUp),
);
