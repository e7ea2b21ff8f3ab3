import { define } from "@/lib/define.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { readJsonBody } from "@/lib/http/body.ts";
import { existingVisitor } from "@/lib/http/visitor.ts";
import { clientIp } from "@/lib/http/client_ip.ts";
import { CHAT_ID } from "@/lib/protocol/chat_id.ts";
import { clampTitle, fallbackTitle, messageText, titleSource } from "@/lib/chat/title.ts";
import { OFFLINE_MODEL_ID } from "@/lib/models/catalog.ts";
import { chatStack } from "@/lib/chat/lazy.ts";

/**
 * `{ id }` → `{ title }`: a short title in the chat's language, saved on the chat; `null`
 * while the visitor has only greeted.
 */
export const handler = define.handlers({
  async POST(ctx) {
    const { app } = ctx;
    const body = await readJsonBody(ctx.req, 4096) as { id?: unknown };
    if (typeof body?.id !== "string" || !CHAT_ID.test(body.id)) {
      throw new HttpError("invalid_request", 'Invalid "id": send { "id": "<chat id>" }.');
    }
    // Only a returning visitor can own a chat: nobody new is minted here.
    const visitorId = await existingVisitor(ctx.req, app.signer);
    const chat = visitorId ? await app.store.getChat(body.id) : null;
    if (!chat || chat.visitorId !== visitorId) {
      throw new HttpError("not_found", `Chat "${body.id}" not found.`);
    }
    const messages = await app.store.loadMessages(body.id, { consistency: "eventual" });
    if (!messages.some((m) => m.role === "user")) {
      throw new HttpError("invalid_request", "The chat has no question to title yet.");
    }
    // Only greetings so far ("Oi!"): no title yet, so the first question can give it one.
    const first = titleSource(messages);
    if (!first) return Response.json({ title: null });
    let title = fallbackTitle(first);
    const modelId = app.models.defaultModelId();
    if (modelId !== OFFLINE_MODEL_ID) {
      // A model call spends the owner's money: the chat's limits hold here too.
      const ip = clientIp(ctx);
      const limited = await app.limits.check(chat.visitorId, ip);
      if (limited) {
        throw new HttpError("rate_limited", "Too many requests. Please wait a moment.", {
          "Retry-After": String(limited.retryAfterSeconds),
        });
      }
      try {
        // The AI SDK and the provider packages load with the chat stack (lib/chat/lazy.ts).
        const { generateText } = await chatStack(app);
        const { text, usage } = await generateText({
          model: app.models.get(modelId),
          system:
            "Write a title of at most 6 words for a chat that starts with the visitor's question below, in the question's language. Reply with the title only.",
          prompt: messageText(first).slice(0, 2000),
          maxOutputTokens: 30,
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(8000),
        });
        title = clampTitle(text) || title;
        const tokens = Math.max(
          usage.totalTokens ?? 0,
          (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
        );
        await app.limits.addTokens(chat.visitorId, ip, tokens).catch((error) =>
          console.error("Counting the title's tokens failed:", error)
        );
      } catch (error) {
        console.warn("Title generation failed; using the question:", error);
      }
    }
    await app.store.renameChat(body.id, title);
    return Response.json({ title });
  },
});
