import { define } from "@/lib/define.ts";

/**
 * GET /api/widget: the loader's first call, from the host page. Reaching this handler means
 * the page's origin is allowed (the API's origin policy answered 403 `origin_not_allowed`
 * otherwise); the answer names the frame to open.
 */
export const handler = define.handlers({
  GET() {
    return Response.json({ frame: "/widget" }, { headers: { "Cache-Control": "no-store" } });
  },
});
