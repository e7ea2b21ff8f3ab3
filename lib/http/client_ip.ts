import type { Context } from "./types.ts";

/** The peer address of a request, for per-IP limits; X-Forwarded-For is not trusted, since clients could forge it. */
export function clientIp(ctx: Pick<Context<unknown>, "state">): string {
  return typeof ctx.state.remoteAddr === "string" ? ctx.state.remoteAddr : "unknown";
}
