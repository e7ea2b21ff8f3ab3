/**
 * The services every route receives as `ctx.app`. Built once per process by
 * lib/server.ts; tests build their own with in-memory parts.
 */
import type { AppConfig } from "@/lib/config.ts";

/** Application version, reported by /api/health. */
export const VERSION = "0.1.0";

/** What handlers can reach. */
export interface AppServices {
  config: AppConfig;
  version: string;
  /** Development mode (dev.ts): detailed error pages, no static caching. */
  dev: boolean;
}
