import { define } from "@/lib/http/define.ts";
import { safeBackPath } from "@/lib/http/redirect.ts";
import { siteOrigins } from "@/lib/http/origin.ts";

/** Switches the UI language with a cookie and goes back to where the visitor was, on this site only. */
export const handler = define.handlers({
  GET(ctx) {
    const code = ctx.params.code === "en" ? "en" : "pt-BR";
    const back = safeBackPath(ctx.req.headers.get("referer"), ctx.url, siteOrigins(ctx.app.config));
    const secure = ctx.app.secureCookies ? "; Secure" : "";
    return new Response(null, {
      status: 303,
      headers: {
        Location: back,
        "Set-Cookie": `lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`,
      },
    });
  },
});
