import { editHeaders } from "@/lib/http/response_headers.ts";
import { type Ctx, define } from "@/lib/define.ts";
import { withApiCors } from "@/lib/http/api_cors.ts";
import { framedByOthers } from "@/lib/http/csp.ts";
import { requireAllowedOrigin, siteOrigins, UNSAFE_METHODS } from "@/lib/http/origin.ts";
import { migrateVisitorCookie } from "@/lib/http/visitor.ts";
import { pickLocale } from "@/lib/i18n/mod.ts";
import { refuseOnArtifactHost } from "@/lib/artifacts/host.ts";

/**
 * Once per request: picks the visitor's language, applies the API's cross-origin policy
 * (foreign origins only from `allowedOrigins`, preflights included), refuses data-changing
 * requests from foreign origins (forms and API alike), moves a legacy visitor cookie to
 * `__Host-visitor`, and adds security headers to pages.
 */
export const handler = define.middleware((ctx) => {
  ctx.state.locale = pickLocale(ctx.req);
  refuseOnArtifactHost(ctx);
  const allowed = [...ctx.app.config.allowedOrigins, ...siteOrigins(ctx.app.config)];
  return withApiCors(ctx.req, ctx.url, allowed, () => guarded(ctx, allowed));
});

async function guarded(ctx: Ctx, allowed: string[]): Promise<Response> {
  if (UNSAFE_METHODS.has(ctx.req.method)) requireAllowedOrigin(ctx.req, ctx.url, allowed);
  let res = await ctx.next();
  const migrated = await migrateVisitorCookie(ctx.req, ctx.app.signer, ctx.app.secureCookies);
  const setsVisitor = res.headers.getSetCookie().some((c) => /^(__Host-)?visitor=/.test(c));
  if (migrated && !setsVisitor) res = withHeaders(res, [["Set-Cookie", migrated]]);
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) {
    res = withHeaders(res, [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "strict-origin-when-cross-origin"],
      // The widget's page declares its own frame-ancestors (other sites frame it).
      ...(framedByOthers(res) ? [] : [["X-Frame-Options", "SAMEORIGIN"] as [string, string]]),
      ["Vary", "Accept-Language, Cookie"],
    ]);
  }
  return res;
}

/** Appends headers (Set-Cookie and Vary add, others replace), copying a response whose headers are immutable. */
function withHeaders(res: Response, headers: [string, string][]): Response {
  return editHeaders(res, (h) => {
    for (const [name, value] of headers) {
      if (name === "Set-Cookie" || name === "Vary") h.append(name, value);
      else h.set(name, value);
    }
  });
}
