/**
 * The app's typed configuration, written by the site owner in fresh.config.ts.
 */
import type { Locale } from "@/lib/i18n/mod.ts";

/** A limit per window: requests a minute and tokens a day. */
export interface RateLimit {
  requestsPerMinute: number;
  tokensPerDay: number;
}

/** Everything a site owner configures. */
export interface AppConfig {
  site: {
    /** Shown in the header and the system prompt. */
    name: string;
    /** Who the site is about, for the system prompt. */
    owner: string;
    /** Public origin of the site, used in links; null serves relative links. */
    url: string | null;
  };
  /** Origins other than our own allowed to call /api/chat (the embeddable widget). */
  allowedOrigins: string[];
  /** Most model steps in one turn (tool calls and answers). */
  maxSteps: number;
  /** Chats expire after this many days without an update. */
  retentionDays: number;
  /** Suggested questions on an empty chat, per language. */
  suggestions: Record<Locale, string[]>;
  limits: { visitor: RateLimit; ip: RateLimit };
  /** Largest accepted /api/chat body in bytes. */
  maxBodyBytes: number;
}

/** Checks and returns the configuration; a bad value stops the start with a clear message. */
export function defineConfig(config: AppConfig): AppConfig {
  if (!config.site.name.trim()) throw new Error('fresh.config.ts: "site.name" must not be empty.');
  if (!Number.isInteger(config.maxSteps) || config.maxSteps < 1 || config.maxSteps > 50) {
    throw new Error(
      `fresh.config.ts: "maxSteps" must be an integer from 1 to 50, got ${config.maxSteps}.`,
    );
  }
  if (!(config.retentionDays > 0)) {
    throw new Error(
      `fresh.config.ts: "retentionDays" must be positive, got ${config.retentionDays}.`,
    );
  }
  for (const origin of config.allowedOrigins) {
    if (new URL(origin).origin !== origin) {
      throw new Error(
        `fresh.config.ts: allowed origin "${origin}" must be a bare origin like "https://example.com".`,
      );
    }
  }
  return config;
}
