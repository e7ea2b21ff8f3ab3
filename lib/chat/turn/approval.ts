/**
 * The approvals a turn asks the visitor for: every call of an operation that
 * changes the world (and every call of a browser-run agent, whose request
 * leaves from the visitor's machine) gets a signed descriptor with the exact
 * HTTP request, which the approval card shows and the continuation verifies.
 */
import type { JSONValue } from "ai";
import { describeForApproval } from "@/lib/tools/agent_tools.ts";
import type { AgentToolContext } from "@/lib/tools/agent_tools.ts";
import type { TurnTools } from "@/lib/tools/mod.ts";
import type { TurnDeps } from "./deps.ts";
import type { RunTurnOptions } from "../engine/run_turn.ts";
import { APPROVAL_TTL_MS, type ApprovalDescriptor, newApprovalId } from "../approvals.ts";
import { localize } from "@/lib/i18n/localized.ts";

/** The engine's `toolApproval` hook for one turn. */
export function approvalHook(
  deps: TurnDeps,
  tools: TurnTools,
  context: AgentToolContext,
): NonNullable<RunTurnOptions["toolApproval"]> {
  return async ({ toolCallId, toolName, input }) => {
    const found = tools.approvalFor(toolName, input) ?? tools.agentFor(toolName);
    const browser = found?.agent.agent.runIn === "browser";
    if (!found || (!browser && !tools.approvalFor(toolName, input))) return null;
    const view = describeForApproval(found.operation, found.agent, input, context);
    // No request can be built from this input (bad model output): the call fails with a
    // tool error the model reads and can correct; no card, nothing sent, the turn goes on.
    if ("error" in view) return { refused: new Error(view.error.message) };
    const expiresAt = deps.clock() + APPROVAL_TTL_MS;
    const signature = await deps.approvals.sign({
      chatId: context.chatId,
      toolCallId,
      toolName,
      input,
      expiresAt,
    });
    const descriptor: ApprovalDescriptor & { agentName: string } = {
      v: 1,
      agentId: found.agent.agent.id,
      agentName: localize(found.agent.agent.name, context.locale === "en" ? "en" : "pt-BR"),
      expiresAt,
      signature,
      request: view.request,
      edit: view.edit,
      runIn: browser ? "browser" : "server",
    };
    return { approvalId: newApprovalId(), descriptor: descriptor as unknown as JSONValue };
  };
}
