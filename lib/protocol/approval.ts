/**
 * Tool approvals on the wire: the descriptor the server attaches to a tool call that waits
 * for the visitor (or that the visitor's browser runs), the visitor's decisions and the
 * outputs of browser-run calls that the client sends back. The server signs and checks
 * descriptors (lib/chat/approvals.ts); the browser shows them on the card (lib/client/).
 * No runtime dependency: the browser's first-visit bundle reads it; the schemas that check
 * these shapes on the server are in chat_request.ts.
 */
/** The exact HTTP request an approval card shows: headers already redacted. */
export interface RequestDescription {
  method: string;
  /** The final URL, exactly as sent. */
  url: string;
  headers: Record<string, string>;
  /** The body as indented JSON (or as sent when it is not JSON). */
  body?: string;
}

/** Where an agent's request is sent from. */
export type RunIn = "server" | "browser";

/**
 * What an approval request carries to the visitor's card and back. `Operation` is the
 * agent operation the card rebuilds the request from after an edit (lib/agents/types.ts);
 * the protocol carries it without reading it.
 */
export interface ApprovalDescriptor<Operation = unknown> {
  v: 1;
  agentId: string;
  /** Shown on the card when present; the agent id otherwise. */
  agentName?: string;
  /** Epoch ms after which the server refuses the approval. */
  expiresAt: number;
  /** base64url HMAC-SHA256 over canonical JSON [chatId, toolCallId, toolName, input, expiresAt]. */
  signature: string;
  /** Where the request is sent from; absent means "server". */
  runIn?: RunIn;
  /** The exact request (headers redacted). */
  request: RequestDescription;
  /** What rebuilding the request after an edit needs. */
  edit: { operation: Operation; baseUrl: string };
}

/** Longest deny reason the server accepts. */
export const MAX_REASON = 500;

/** The visitor's decision on one pending approval; `input` is an edit of the arguments. */
export interface ApprovalResponse {
  approvalId: string;
  approved: boolean;
  /** Why it was denied (only with `approved: false`, at most {@linkcode MAX_REASON} characters). */
  reason?: string;
  /** Edited arguments (only with `approved: true`). */
  input?: Record<string, unknown>;
}

/** What a browser-run tool call returned, as the server's agent tools return it. */
export type ToolOutputValue = { data: unknown } | { error: { status: number; message: string } };

/** The result of one tool call the visitor's browser ran (a browser-run agent). */
export interface ToolOutput {
  toolCallId: string;
  output: ToolOutputValue;
}
