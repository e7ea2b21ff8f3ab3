import { CONTEXT_HEADER } from "@/lib/agents/request.ts";
import {
  MAX_CONTACT_BODY_BYTES,
  parseAssistantContext,
  parseContactInput,
} from "@/lib/contact/input.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { define } from "@/lib/http/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";

/** The visitor id stored for a message sent without a visitor cookie. */
const ANONYMOUS = "anonymous";

/**
 * POST /api/contact: a message to the site owner (the contact agent's
 * `sendMessageToOwner`, see static/agents/contact.json). 201 `{ id, receivedAt }`.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { app } = ctx;
    const visitorId = await existingVisitor(ctx.req, app.signer);
    const ip = clientIp(ctx);
    // Without a cookie the IP is the only identity: anonymous senders must not share one bucket.
    const limited = await app.limits.check(visitorId ?? `${ANONYMOUS}:${ip}`, ip);
    if (limited) {
      await ctx.req.body?.cancel().catch(() => {});
      throw new HttpError("rate_limited", "Too many messages. Please wait a moment.", {
        "Retry-After": String(limited.retryAfterSeconds),
      });
    }
    const input = parseContactInput(await readJsonBody(ctx.req, MAX_CONTACT_BODY_BYTES));
    const context = parseAssistantContext(ctx.req.headers.get(CONTEXT_HEADER));
    const saved = await app.contact.save({
      ...input,
      visitorId: visitorId ?? ANONYMOUS,
      ...(context ? { context } : {}),
    });
    return Response.json({ id: saved.id, receivedAt: saved.receivedAt }, {
      status: 201,
      headers: { "Cache-Control": "no-store" },
    });
  },
});
