import { define } from "@/lib/define.ts";
import { activeOwnedStream } from "@/lib/chat/ownership.ts";

/**
 * Stops the chat's answer in flight, wherever it is produced: the producing isolate sees
 * the request in the stream log, aborts the model call and saves the partial answer as
 * stopped. 202 `{ stopped: true }`; 204 when nothing runs; 404 for anyone but the owner.
 * (The middleware refuses foreign origins, as for every POST.)
 */
export const handler = define.handlers({
  async POST(ctx) {
    const pointer = await activeOwnedStream(ctx.req, ctx.app, ctx.params.id);
    if (!pointer) return new Response(null, { status: 204 });
    await ctx.app.streamLog.requestStop(pointer.streamId);
    return Response.json({ stopped: true }, { status: 202 });
  },
});
