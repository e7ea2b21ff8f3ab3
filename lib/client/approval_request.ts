/**
 * Rebuilds an approval's HTTP request from (possibly edited) arguments with the
 * same builder the server uses (lib/agents/request.ts, browser-safe): for the
 * card after an edit ("show", headers redacted as on the descriptor) and for a
 * browser-run agent ("send"). Loaded lazily with the card or the browser runner.
 */
import {
  type AgentRequest,
  buildRequest,
  describeRequest,
  REDACTED,
  type RequestBuildError,
} from "@/lib/agents/request.ts";
import type { RequestDescription } from "@/lib/protocol/approval.ts";
import type { ApprovalDescriptorView } from "./approval.ts";

/** A placeholder for a redacted value while rebuilding (the real one never reaches the browser). */
const HIDDEN = "hidden";

/**
 * Headers of the descriptor's request that are not rebuilt from the arguments:
 * the agent's configured headers and the context header, as the server set them.
 */
function fixedHeaders(
  descriptor: ApprovalDescriptorView,
): Array<[name: string, value: string]> {
  const params = new Set(
    descriptor.edit.operation.parameters.header.map((p) => p.name.toLowerCase()),
  );
  return Object.entries(descriptor.request.headers).filter(([name]) =>
    !params.has(name.toLowerCase()) && name.toLowerCase() !== "content-type"
  );
}

/** The request to send for `input` (redacted headers are left out: the browser has no secrets). */
export function requestToSend(
  descriptor: ApprovalDescriptorView,
  input: Record<string, unknown>,
): { request: AgentRequest } | { error: RequestBuildError } {
  const headers = Object.fromEntries(fixedHeaders(descriptor).filter(([, v]) => v !== REDACTED));
  return buildRequest(descriptor.edit.operation, input, {
    baseUrl: descriptor.edit.baseUrl,
    headers,
  });
}

/** The request for `input` as the card shows it; headers redacted on the descriptor stay so. */
export function requestToShow(
  descriptor: ApprovalDescriptorView,
  input: Record<string, unknown>,
): { request: RequestDescription } | { error: RequestBuildError } {
  const fixed = fixedHeaders(descriptor);
  const secret = fixed.filter(([, v]) => v === REDACTED).map(([name]) => name);
  const built = buildRequest(descriptor.edit.operation, input, {
    baseUrl: descriptor.edit.baseUrl,
    headers: Object.fromEntries(fixed.map(([n, v]) => [n, v === REDACTED ? HIDDEN : v])),
  });
  if ("error" in built) return built;
  return { request: describeRequest(built.request, secret) };
}
