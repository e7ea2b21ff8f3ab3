import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { isArtifactHost, parentOriginOf } from "@/lib/artifacts/origin.ts";
import { artifactFrameCsp, artifactFramePage } from "@/lib/artifacts/sandbox_doc.ts";

/**
 * The artifact preview page, answered only on the artifact origin (`ARTIFACT_ORIGIN`):
 * a sandboxed, network-less page that takes one document from the chat page that
 * frames it (`?parent=<its origin>`) and runs it. See lib/artifacts/origin.ts.
 */
export const handler = define.handlers({
  GET(ctx) {
    if (!isArtifactHost(ctx.url, ctx.app.artifactOrigin)) {
      throw new HttpError("not_found", "No artifact frame here.");
    }
    const parent = parentOriginOf(ctx.url);
    if (!parent || parent === ctx.app.artifactOrigin) {
      throw new HttpError(
        "invalid_request",
        'The frame needs "?parent=" set to the origin of the chat page that shows it.',
      );
    }
    return new Response(artifactFramePage(parent), {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": artifactFrameCsp(parent),
        "Cache-Control": "public, max-age=300",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Resource-Policy": "cross-origin",
      },
    });
  },
});
