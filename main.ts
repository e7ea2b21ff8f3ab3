/**
 * Production entry: what Deno Deploy runs (`deno task deploy`, README "Deploy"). Run
 * `deno task build` first so the island bundles, the route manifest and the search index exist.
 */
import defaultConfig from "@/fresh.config.ts";
import { enforceStartupChecks } from "@/lib/startup_checks.ts";
import { createServerApp } from "@/lib/server.ts";
import { warmAfterFirstResponse } from "@/lib/chat/lazy.ts";

enforceStartupChecks(Deno.env.toObject(), defaultConfig);
const { app, services, warmUp } = await createServerApp();
const port = Number(Deno.env.get("PORT") ?? 8000);
// The chat stack loads in the background once the first page is answered.
const server = Deno.serve({
  port,
  onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}/`),
}, warmAfterFirstResponse(app, warmUp));

/** How long a stop waits for the answers in flight before it ends them. */
const DRAIN_MS = 10_000;

// A stop (a new deployment, a container stopped) sends SIGTERM: the answers in flight finish,
// then the writes made beside them (content gaps, token counts) land before the process ends.
try {
  Deno.addSignalListener("SIGTERM", async () => {
    console.log("SIGTERM: finishing the answers in flight, then stopping.");
    await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, DRAIN_MS))]);
    await services.background.settled();
    Deno.exit(0);
  });
} catch {
  // A host that manages the process's end itself offers no signal listener.
}
