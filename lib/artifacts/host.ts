/**
 * The artifact origin serves artifact frames and nothing else: on that host every
 * other path is a 404, so the chat, its cookies and its API never answer there.
 */
import type { Context } from "@/lib/http/types.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { isArtifactHost } from "./origin.ts";

/** Path of the frame page on the artifact origin. */
export const FRAME_PATH = "/artifact/frame";

/** Throws a 404 for any request to the artifact host other than the frame page. */
export function refuseOnArtifactHost(ctx: Context<{ artifactOrigin: string | null }>): void {
  if (ctx.url.pathname === FRAME_PATH) return;
  if (isArtifactHost(ctx.url, ctx.app.artifactOrigin)) {
    throw new HttpError("not_found", "The artifact origin serves artifact frames only.");
  }
}
