import { define } from "@/lib/define.ts";
import { languageRedirect } from "@/lib/http/language.ts";

/**
 * /en, the address an English speaker tries first: the home page in English, through the
 * language cookie (as /lang/en sets it), keeping the query (`?agent=`).
 */
export const handler = define.handlers({
  GET(ctx) {
    return languageRedirect("en", "/" + ctx.url.search, ctx.app.secureCookies);
  },
});
