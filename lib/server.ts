/**
 * Assembles the app: configuration, services and the generated manifest.
 * Shared by main.ts (production), dev.ts and the integration tests.
 */
import manifest from "@/fresh.gen.ts";
import config from "@/fresh.config.ts";
import { type App, createApp } from "@/lib/http/app.ts";
import { readIslandAssets } from "@/lib/islands/build.ts";
import type { IslandAssets } from "@/lib/http/types.ts";
import { type AppServices, VERSION } from "@/lib/services.ts";

/** Options of `createServerApp`; everything has a production default. */
export interface ServerOptions {
  root?: URL;
  dev?: boolean;
  /** Island assets; read from static/_islands/manifest.json when omitted. */
  islandAssets?: IslandAssets | null;
  /** Overrides of individual services (tests). */
  services?: Partial<AppServices>;
}

/** Builds the request handler of the whole app. */
export async function createServerApp(options: ServerOptions = {}): Promise<{ app: App; services: AppServices }> {
  const root = options.root ?? new URL("../", import.meta.url);
  const dev = options.dev ?? false;
  const islandAssets = options.islandAssets !== undefined ? options.islandAssets : await readIslandAssets(root);
  if (!islandAssets) console.warn("static/_islands/manifest.json is missing: run `deno task build` first.");
  const services: AppServices = { config, version: VERSION, dev, ...options.services };
  const app = createApp({ manifest, services, staticDir: new URL("static/", root), islandAssets, dev });
  return { app, services };
}
