import { define } from "@/lib/http/define.ts";
import { requireAllowedOrigin, siteOrigins, UNSAFE_METHODS } from "@/lib/http/origin.ts";
import { migrateVisitorCookie } from "@/lib/http/visitor.ts";
import { pickLocale } from "@/lib/i18n/mod.ts";

/**
 * Once per request: picks the visitor's language, refuses data-changing requests
 * from foreign origins (forms and API alike), moves a legacy visitor cookie to
 * `__Host-visitor`, and adds security headers to pages.
 */
export const handler = define.middleware(async (ctx) => {
  ctx.state.locale = pickLocale(ctx.req);
  const { config } = ctx.app;
  if (UNSAFE_METHODS.has(ctx.req.method)) {
    requireAllowedOrigin(ctx.req, ctx.url, [...config.allowedOrigins, ...siteOrigins(config)]);
  }
  let res = await ctx.next();
  const migrated = await migrateVisitorCookie(ctx.req, ctx.app.signer, ctx.app.secureCookies);
  const setsVisitor = res.headers.getSetCookie().some((c) => /^(__Host-)?visitor=/.test(c));
  if (migrated && !setsVisitor) res = withHeaders(res, [["Set-Cookie", migrated]]);
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) {
    res = withHeaders(res, [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "strict-origin-when-cross-origin"],
      ["X-Frame-Options", "SAMEORIGIN"],
      ["Vary", "Accept-Language, Cookie"],
    ]);
  }
  return res;
});

/** Appends headers (Set-Cookie and Vary add, others replace), copying a response whose headers are immutable. */
function withHeaders(res: Response, headers: [string, string][]): Response {
  let out = res;
  try {
    apply(out.headers);
  } catch {
    out = new Response(res.body, res);
    apply(out.headers);
  }
  return out;

  function apply(h: Headers) {
    for (const [name, value] of headers) {
      if (name === "Set-Cookie" || name === "Vary") h.append(name, value);
      else h.set(name, value);
    }
  }
}
