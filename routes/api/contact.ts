import { CONTEXT_HEADER } from "@/lib/agents/request.ts";
import { CONTEXT_SEAL_HEADER } from "@/lib/agents/context_seal.ts";
import type { AssistantContext } from "@/lib/agents/request.ts";
import type { AppServices } from "@/lib/services.ts";
import {
  MAX_CONTACT_BODY_BYTES,
  parseAssistantContext,
  parseContactInput,
} from "@/lib/contact/input.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { define } from "@/lib/define.ts";
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
    const context = await sealedContext(ctx.req.headers, app);
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

/**
 * The chat context of a message, only from a header this server sealed when it sent its own
 * agent's call: a header anyone else wrote (a visitor calling the API directly) is ignored,
 * and the message is stored without a chat, like any message sent without the assistant.
 */
async function sealedContext(
  headers: Headers,
  app: AppServices,
): Promise<AssistantContext | undefined> {
  const header = headers.get(CONTEXT_HEADER);
  const seal = headers.get(CONTEXT_SEAL_HEADER);
  if (header === null || seal === null) return undefined;
  if (!await app.contextSeal.verify(header, seal, app.clock())) return undefined;
  return parseAssistantContext(header);
}
