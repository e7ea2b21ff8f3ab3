import { define } from "@/lib/http/define.ts";

/** Switches the UI language with a cookie and goes back to where the visitor was. */
export const handler = define.handlers({
  GET(ctx) {
    const code = ctx.params.code === "en" ? "en" : "pt-BR";
    const referer = ctx.req.headers.get("referer");
    let back = "/";
    if (referer) {
      const ref = new URL(referer, ctx.url);
      if (ref.origin === ctx.url.origin) back = ref.pathname + ref.search;
    }
    return new Response(null, {
      status: 303,
      headers: {
        Location: back,
        "Set-Cookie": `lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax`,
      },
    });
  },
});
