/**
 * Tool approvals as the browser sees them: the approval descriptor the server
 * attaches to a tool part (its wire shape is lib/protocol/approval.ts), and the small helpers lib/client/chat.ts needs to
 * find pending approvals and build the `approval-responses` / `tool-outputs`
 * requests. Kept tiny: it ships in the first-visit bundle with chat.ts; the
 * request builder and the card load lazily.
 */
import type { UIMessage } from "ai";
import type { AgentOperation } from "@/lib/agents/types.ts";
import {
  type ApprovalDescriptor,
  type ApprovalResponse,
  MAX_REASON,
} from "@/lib/protocol/approval.ts";

/** The approval descriptor of a tool part, as the server sent it. */
export type ApprovalDescriptorView = ApprovalDescriptor<AgentOperation>;

/** The visitor's decision on one approval (`addToolApprovalResponse`). */
export interface ApprovalDecision {
  /** The approval id (`part.approval.id`). */
  id: string;
  approved: boolean;
  /** Why it was denied (sent only with `approved: false`, at most 500 characters). */
  reason?: string;
  /** Edited arguments (only with `approved: true`). */
  input?: Record<string, unknown>;
}

/** The approval fields of a tool part, as the message builder and the client set them. */
export interface PartApproval {
  id: string;
  approved?: boolean;
  reason?: string;
  edited?: boolean;
  descriptor?: ApprovalDescriptorView;
}

/** A tool part read as a record (the SDK's union types each state separately). */
export interface ToolPartView {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: PartApproval;
  toolMetadata?: { approvalDescriptor?: ApprovalDescriptorView };
}

/** The part as a tool part, or null. */
export function toolPart(part: UIMessage["parts"][number]): ToolPartView | null {
  return part.type === "dynamic-tool" || part.type.startsWith("tool-")
    ? part as unknown as ToolPartView
    : null;
}

/**
 * The descriptor of a tool part: the approval's, or for a browser-run call that
 * needs no approval, `toolMetadata.approvalDescriptor`.
 */
export function descriptorOf(part: ToolPartView): ApprovalDescriptorView | undefined {
  return part.approval?.descriptor ?? part.toolMetadata?.approvalDescriptor;
}

/** The tool parts of `message` (empty for a question). */
export function toolParts(message: UIMessage | undefined): ToolPartView[] {
  if (message?.role !== "assistant") return [];
  return message.parts.flatMap((p) => toolPart(p) ?? []);
}

/** True when the message has a tool part with an approval (the card must load). */
export function hasApprovalPart(message: UIMessage): boolean {
  return toolParts(message).some((p) => p.approval != null || descriptorOf(p) != null);
}

/** The wire form of a responded part's decision. */
export function responseOf(part: ToolPartView): ApprovalResponse {
  const a = part.approval!;
  const approved = a.approved === true;
  return {
    approvalId: a.id,
    approved,
    ...(!approved && a.reason ? { reason: a.reason.slice(0, MAX_REASON) } : {}),
    ...(approved && a.edited ? { input: part.input as Record<string, unknown> } : {}),
  };
}

/** Browser-run calls waiting for the browser: approved, or needing no approval, and not run. */
export function browserCalls(parts: ToolPartView[]): ToolPartView[] {
  return parts.filter((p) =>
    descriptorOf(p)?.runIn === "browser" &&
    (p.state === "input-available" || (p.state === "approval-responded" && p.approval?.approved))
  );
}

/** DOM event an approval card dispatches (bubbling) with an {@linkcode ApprovalDecision}. */
export const APPROVAL_EVENT = "assistant:approval";
