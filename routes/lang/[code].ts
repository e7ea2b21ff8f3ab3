import { define } from "@/lib/define.ts";
import { safeBackPath } from "@/lib/http/redirect.ts";
import { siteOrigins } from "@/lib/http/origin.ts";
import { languageRedirect } from "@/lib/http/language.ts";

/** Switches the UI language with a cookie and goes back to where the visitor was, on this site only. */
export const handler = define.handlers({
  GET(ctx) {
    const code = ctx.params.code === "en" ? "en" : "pt-BR";
    const back = safeBackPath(ctx.req.headers.get("referer"), ctx.url, siteOrigins(ctx.app.config));
    return languageRedirect(code, back, ctx.app.secureCookies);
  },
});
