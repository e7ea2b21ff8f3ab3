/**
 * Production entry: what Deno Deploy runs (`deno task deploy`, README "Deploy"). Run
 * `deno task build` first so the island bundles, the route manifest and the search index exist.
 */
import defaultConfig from "@/fresh.config.ts";
import { enforceStartupChecks } from "@/lib/startup_checks.ts";
import { createServerApp } from "@/lib/server.ts";
import { warmAfterFirstResponse } from "@/lib/chat/lazy.ts";

enforceStartupChecks(Deno.env.toObject(), defaultConfig);
const { app, warmUp } = await createServerApp();
const port = Number(Deno.env.get("PORT") ?? 8000);
// The chat stack loads in the background once the first page is answered.
Deno.serve({
  port,
  onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}/`),
}, warmAfterFirstResponse(app, warmUp));
