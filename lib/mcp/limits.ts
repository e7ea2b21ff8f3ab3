/**
 * The request limits of `/mcp`: the chat's per-IP allowance (the same KV counter, so an
 * address's chats and MCP calls share it) and a ceiling over every caller together
 * (`MCP_GLOBAL_REQUESTS_PER_MINUTE`), both through the app's limiter (lib/store/limits.ts).
 */
import type { AppServices } from "@/lib/services.ts";
import { createRateLimiter, type Limited, type RateLimiter } from "@/lib/store/limits.ts";

/**
 * The id the global ceiling is counted under, in the limiter's "visitor" scope. Visitor ids
 * are base64url, which has no ":", so no visitor can share this counter.
 */
export const MCP_GLOBAL_ID = "mcp:all";

const limiters = new WeakMap<AppServices, RateLimiter>();

/** Counts one request to `/mcp` from `ip`; a refusal says how long to wait. */
export async function checkMcpLimit(app: AppServices, ip: string): Promise<Limited | null> {
  let limiter = limiters.get(app);
  if (!limiter) {
    limiter = createRateLimiter(
      app.kv,
      { visitor: app.mcp.global, ip: app.config.limits.ip },
      app.clock,
    );
    limiters.set(app, limiter);
  }
  try {
    return await limiter.check(MCP_GLOBAL_ID, ip);
  } catch (error) {
    // As the chat does: the in-isolate count already answered; a KV hiccup must not fail the call.
    console.error("MCP rate-limit check failed; letting the request through:", error);
    return null;
  }
}
