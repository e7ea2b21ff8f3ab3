import { define } from "@/lib/http/define.ts";
import { pickLocale } from "@/lib/i18n/mod.ts";

/** Picks the visitor's language once per request and adds security headers to pages. */
export const handler = define.middleware(async (ctx) => {
  ctx.state.locale = pickLocale(ctx.req);
  const res = await ctx.next();
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) {
    res.headers.set("X-Content-Type-Options", "nosniff");
    res.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    res.headers.set("X-Frame-Options", "SAMEORIGIN");
    res.headers.append("Vary", "Accept-Language, Cookie");
  }
  return res;
});
