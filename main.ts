/**
 * Production entry: what deployctl deploys. Run `deno task build` first so the
 * island bundles, the route manifest and the search index exist.
 */
import { createServerApp } from "@/lib/server.ts";

const { app } = await createServerApp();
const port = Number(Deno.env.get("PORT") ?? 8000);
Deno.serve({
  port,
  onListen: ({ hostname, port }) => console.log(`Listening on http://${hostname}:${port}/`),
}, app);
