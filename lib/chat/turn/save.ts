/**
 * The save phase of a chat turn. The question is saved when the turn starts,
 * together with a placeholder answer marked "interrupted", so a crash mid-answer
 * loses nothing the visitor typed and shows the answer as cut off, with Retry.
 * When the turn ends, the placeholder is replaced by the answer as streamed and
 * marked with how the turn ended. A chat deleted meanwhile stays deleted.
 */
import { HttpError } from "@/lib/http/errors.ts";
import { recordGap } from "@/lib/store/gaps.ts";
import { relatedGap, turnGap } from "@/lib/gaps/turn_gap.ts";
import { inSpan, TURN_SPANS } from "@/lib/telemetry/spans.ts";
import { countedTokens } from "@/lib/protocol/usage.ts";
import type { TurnDeps } from "./deps.ts";
import { startMetadata } from "./metadata.ts";
import { ChatNotFoundError, ReplaceTargetMissingError } from "@/lib/store/errors.ts";
import type { TurnEnd } from "../engine/run_turn.ts";
import { fallbackTitle, namesChat } from "../title.ts";
import type { AnswerOutcome, ChatMessage, EarlierAnswer } from "@/lib/protocol/ui_message.ts";
import type { TurnPlan } from "./plan.ts";

/** How the start of the turn was saved. */
export type Begun =
  | { ok: true }
  /** The visitor may not write this chat, or the message to replace is gone: the turn stops. */
  | { ok: false; refused: HttpError }
  /** The store failed: the end of the turn tries the whole save again. */
  | { ok: false; refused: null };

/** The answer as saved before its first token: empty, and "interrupted" until the turn says otherwise. */
export function placeholderAnswer(plan: TurnPlan, id: string): ChatMessage {
  return {
    id,
    role: "assistant",
    parts: [],
    metadata: { ...startMetadata(plan), outcome: "interrupted" },
  };
}

/** Saves the question and the placeholder answer; never throws. */
export async function beginSave(
  deps: TurnDeps,
  plan: TurnPlan,
  answer: ChatMessage,
): Promise<Begun> {
  try {
    await deps.store.beginTurn({
      chatId: plan.chatId,
      visitorId: plan.visitor.id,
      replaceFrom: plan.replaceFrom,
      append: plan.question ? [plan.question, answer] : [answer],
      // A greeting names nothing: the first question after it titles the chat.
      title: plan.question && namesChat(plan.question) ? fallbackTitle(plan.question) : undefined,
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof ChatNotFoundError) {
      return { ok: false, refused: new HttpError("not_found", `Chat "${plan.chatId}" not found.`) };
    }
    if (error instanceof ReplaceTargetMissingError) {
      return {
        ok: false,
        refused: new HttpError(
          "invalid_request",
          "The message to replace is no longer in this chat. Reload the chat and try again.",
        ),
      };
    }
    console.error(`Chat ${plan.chatId}: saving the question failed:`, error);
    return { ok: false, refused: null };
  }
}

/** Saves a continued answer with the visitor's responses applied; never throws. */
export async function continueSave(
  deps: TurnDeps,
  plan: TurnPlan,
  answer: ChatMessage,
): Promise<Begun> {
  const marked = { ...answer, metadata: { ...answer.metadata, outcome: "interrupted" as const } };
  try {
    if (await deps.store.replaceMessage(plan.chatId, answer.id, marked)) return { ok: true };
    return { ok: false, refused: new HttpError("not_found", `Chat "${plan.chatId}" not found.`) };
  } catch (error) {
    console.error(`Chat ${plan.chatId}: saving the responses failed:`, error);
    return { ok: false, refused: null };
  }
}

/**
 * Saves the finished answer in place of its placeholder, retrying with backoff. When the
 * start of the turn could not be saved, saves it all now. Resolves to whether the answer is
 * saved; false also when the chat was deleted meanwhile (nothing is written then).
 */
export async function saveAnswer(
  deps: TurnDeps,
  plan: TurnPlan,
  answer: ChatMessage,
  begun: Begun,
): Promise<boolean> {
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      if (begun.ok || plan.continued) {
        return await deps.store.replaceMessage(plan.chatId, answer.id, answer);
      }
      // The start was never saved: save question and answer together now.
      const again = await beginSave(deps, plan, answer);
      if (again.ok || again.refused) return again.ok;
    } catch (error) {
      console.error(
        `Chat ${plan.chatId}: saving the answer failed (attempt ${attempt + 1}):`,
        error,
      );
    }
    await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
  }
  return false;
}

/**
 * The answer as saved when its turn ended: parts still marked streaming (cut off by an
 * error, a stop or a step bound) are marked done, so a reload never shows them as live.
 * `earlier`: the answers a regenerate replaced, kept on this one.
 */
export function settledAnswer(
  answer: ChatMessage,
  outcome: AnswerOutcome,
  earlier: EarlierAnswer[] = [],
): ChatMessage {
  const parts = answer.parts.map((part) =>
    "state" in part && part.state === "streaming" ? { ...part, state: "done" as const } : part
  );
  const metadata = {
    ...answer.metadata,
    ...(earlier.length ? { earlier } : {}),
    outcome,
    ...(outcome === "stopped" ? { finishReason: "aborted" } : {}),
    ...(outcome === "failed" ? { finishReason: "error" } : {}),
  };
  return { ...answer, parts, metadata };
}

/** Counts the turn's tokens against the visitor's and the IP's daily budgets; never throws. */
async function countTokens(deps: TurnDeps, plan: TurnPlan, end: TurnEnd): Promise<void> {
  // A stopped or failed answer counts too (estimated when cut off): stopping every answer
  // must not make the daily token budget free.
  const tokens = countedTokens(end.kind === "finish" ? end.totals.usage : end.usage);
  try {
    await deps.limits.addTokens(plan.visitor.id, plan.ip, tokens);
  } catch (error) {
    console.error(`Chat ${plan.chatId}: counting ${tokens} tokens failed:`, error);
  }
}

/** How the stream went, for the end of the turn. */
export interface Settling {
  /** The stream reached the visitor (else the turn ended before its first content). */
  opened: boolean;
  outcome: AnswerOutcome;
}

/**
 * The end of a turn: the answer saved with how the turn ended, its tokens counted, a content
 * gap recorded. A chat whose first question a brand-new visitor abandoned before any
 * response is removed: its cookie never reached them, so nobody could ever open it.
 * Resolves to whether the answer is saved.
 */
export async function settle(
  deps: TurnDeps,
  plan: TurnPlan,
  answer: ChatMessage,
  end: TurnEnd,
  start: Begun,
  { opened, outcome }: Settling,
): Promise<boolean> {
  deps.background.add(countTokens(deps, plan, end));
  if (
    !opened && outcome === "stopped" && end.kind === "abort" && plan.newChat &&
    plan.visitor.setCookie && start.ok
  ) {
    await deps.store.deleteChat(plan.chatId, { allowReuse: true }).catch((error) =>
      console.error(`Chat ${plan.chatId}: removing an abandoned chat failed:`, error)
    );
    return true;
  }
  const saved = settledAnswer(answer, outcome, plan.earlier);
  const at = deps.clock();
  // Recorded beside the save, never in the way of the visitor's answer (/admin/gaps).
  for (const gap of [turnGap({ ...plan, at }, saved, outcome), relatedGap({ ...plan, at })]) {
    if (gap) deps.background.add(recordGap(deps.kv, gap));
  }
  return await inSpan(TURN_SPANS.save, () => saveAnswer(deps, plan, saved, start), {
    "chat.save": "end",
  });
}
