/**
 * A question posted by the chat's HTML form, as a browser without JavaScript sends it: it goes
 * through the app's own `POST /api/chat` (the same checks, limits, model and saving as the
 * island's request), the answer is read to its end, and the visitor is sent to the chat's
 * page, which renders the saved answer on the server.
 */
import type { Ctx } from "@/lib/define.ts";
import { readFormBody } from "@/lib/http/body.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { ERROR_STATUS, type ErrorCode, HttpError } from "@/lib/http/errors.ts";
import { QUESTION_FIELD } from "@/lib/protocol/form_fields.ts";

/** Answers the form's question in chat `chatId`, then 303 to `/c/:chatId` (or back, if empty). */
export async function answerFormPost(ctx: Ctx, chatId: string): Promise<Response> {
  const form = await readFormBody(ctx.req, ctx.app.config.maxBodyBytes);
  const text = form.get(QUESTION_FIELD)?.trim() ?? "";
  const page = `/c/${chatId}`;
  if (!text) return redirect(ctx.url.pathname, []);
  const self = ctx.app.selfApp;
  if (!self) throw new Error("The app is not wired to itself (services.selfApp is null).");
  const res = await self(turnRequest(ctx, chatId, text, form), {
    remoteAddr: { transport: "tcp", hostname: clientIp(ctx), port: 0 },
    completed: Promise.resolve(),
  });
  if (!res.ok) throw await turnError(res);
  // The answer is saved when its stream ends: read it to the end before showing the page.
  await res.body?.pipeTo(new WritableStream());
  return redirect(page, res.headers.getSetCookie());
}

/** The island's request for the same question, with the visitor's cookies and language. */
function turnRequest(ctx: Ctx, chatId: string, text: string, form: URLSearchParams): Request {
  const headers = new Headers({
    "Content-Type": "application/json",
    Origin: ctx.url.origin,
  });
  for (const name of ["cookie", "accept-language", "user-agent"]) {
    const value = ctx.req.headers.get(name);
    if (value) headers.set(name, value);
  }
  const message = {
    id: "u_" + crypto.randomUUID().slice(0, 8),
    role: "user",
    parts: [{ type: "text", text }],
  };
  const agent = form.get("agent") || undefined;
  const body = { id: chatId, trigger: "submit-message", message, agent };
  return new Request(new URL("/api/chat", ctx.url), {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

/** The turn's JSON error as the same error for the page (429 keeps its Retry-After). */
async function turnError(res: Response): Promise<HttpError> {
  const body = await res.json().catch(() => null) as
    | { error?: { code?: string; message?: string } }
    | null;
  const code = body?.error?.code;
  const known = code && code in ERROR_STATUS ? code as ErrorCode : "internal_error";
  const retry = res.headers.get("retry-after");
  return new HttpError(
    known,
    body?.error?.message ?? `The question could not be sent (${res.status}).`,
    retry ? { "Retry-After": retry } : undefined,
  );
}

function redirect(location: string, cookies: string[]): Response {
  const headers = new Headers({ Location: location });
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}
