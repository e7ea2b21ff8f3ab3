import assert from "node:assert/strict";
import { HttpError } from "@/lib/http/errors.ts";
import type { ChatRequest } from "@/lib/protocol/chat_request.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { type ContinuationDeps, continuationPlan } from "./continue.ts";

const SCHEMA = {
  type: "object",
  properties: {
    body: {
      type: "object",
      properties: { name: { type: "string", minLength: 1 }, message: { type: "string" } },
      required: ["name", "message"],
    },
  },
  required: ["body"],
};

function pending(id: string, input: unknown, extra: Record<string, unknown> = {}) {
  return {
    type: "tool-sendMessageToOwner",
    toolCallId: `call_${id}`,
    state: "approval-requested",
    input,
    approval: {
      id,
      descriptor: {
        expiresAt: 2_000,
        signature: `sig:${JSON.stringify(input)}`,
        edit: { operation: { inputSchema: SCHEMA } },
      },
    },
    ...extra,
  };
}

function history(...parts: unknown[]): ChatMessage[] {
  return [
    { id: "q", role: "user", parts: [{ type: "text", text: "Mande um recado" }] },
    { id: "a", role: "assistant", parts: parts as ChatMessage["parts"] },
  ];
}

const INPUT = { body: { name: "Ana", message: "Oi" } };
const deps: ContinuationDeps = {
  chatId: "chat1",
  now: 1_000,
  // The test signature is the input itself: any change to it fails verification.
  verify: (call, signature) => Promise.resolve(signature === `sig:${JSON.stringify(call.input)}`),
  runsInBrowser: (name) => name === "localTool",
};

const approve = (approvals: ChatRequest["approvals"]): ChatRequest =>
  ({ id: "chat1", trigger: "approval-responses", approvals }) as ChatRequest;

async function refused(promise: Promise<unknown>, pattern: RegExp) {
  await assert.rejects(
    promise,
    (e: unknown) => e instanceof HttpError && e.status === 400 && pattern.test(e.message),
  );
}

Deno.test("continuation: an approval applies to the pending part and is claimed", async () => {
  const plan = await continuationPlan(
    history(pending("apr_1", INPUT)),
    approve([{ approvalId: "apr_1", approved: true }]),
    deps,
  );
  const part = plan.continued.parts[0] as unknown as {
    state: string;
    approval: { approved: boolean };
  };
  assert.equal(part.state, "approval-responded");
  assert.equal(part.approval.approved, true);
  assert.deepEqual(plan.claims, ["apr_1"]);
  assert.equal(plan.messages.at(-1), plan.continued);
});

Deno.test("continuation: a denial keeps its reason", async () => {
  const plan = await continuationPlan(
    history(pending("apr_1", INPUT)),
    approve([{ approvalId: "apr_1", approved: false, reason: "Não agora" }]),
    deps,
  );
  const part = plan.continued.parts[0] as unknown as {
    approval: { approved: boolean; reason: string };
  };
  assert.deepEqual([part.approval.approved, part.approval.reason], [false, "Não agora"]);
});

Deno.test("continuation: forged, altered, expired and incomplete approvals are refused", async () => {
  await refused(
    continuationPlan(
      history(pending("apr_1", INPUT)),
      approve([{ approvalId: "apr_x", approved: true }]),
      deps,
    ),
    /apr_1.*needs an answer|not pending/,
  );
  await refused(
    continuationPlan(
      history(pending("apr_1", INPUT), pending("apr_2", INPUT)),
      approve([{ approvalId: "apr_1", approved: true }]),
      deps,
    ),
    /"apr_2" needs an answer/,
  );
  // Arguments changed after signing.
  const altered = pending("apr_1", INPUT);
  altered.input = { body: { name: "Eva", message: "Oi" } };
  await refused(
    continuationPlan(history(altered), approve([{ approvalId: "apr_1", approved: true }]), deps),
    /does not match/,
  );
  // No signature: never issued by this server.
  const unsigned = pending("apr_1", INPUT);
  (unsigned.approval as { descriptor?: unknown }).descriptor = undefined;
  await refused(
    continuationPlan(history(unsigned), approve([{ approvalId: "apr_1", approved: true }]), deps),
    /not issued/,
  );
  await refused(
    continuationPlan(
      history(pending("apr_1", INPUT)),
      approve([{ approvalId: "apr_1", approved: true }]),
      { ...deps, now: 5_000 },
    ),
    /expired/,
  );
  // Already answered: not pending any more.
  await refused(
    continuationPlan(
      history(pending("apr_1", INPUT, { state: "approval-responded" })),
      approve([{ approvalId: "apr_1", approved: true }]),
      deps,
    ),
    /not pending/,
  );
  await refused(
    continuationPlan([history()[0]], approve([{ approvalId: "apr_1", approved: true }]), deps),
    /no answer waiting/,
  );
});

Deno.test("continuation: an edit is validated, then executed as edited", async () => {
  const edited = { body: { name: "Ana Maria", message: "Oi de novo" } };
  const plan = await continuationPlan(
    history(pending("apr_1", INPUT)),
    approve([{ approvalId: "apr_1", approved: true, input: edited }]),
    deps,
  );
  const part = plan.continued.parts[0] as unknown as {
    input: unknown;
    approval: { edited: boolean };
  };
  assert.deepEqual(part.input, edited);
  assert.equal(part.approval.edited, true);
  await refused(
    continuationPlan(
      history(pending("apr_1", INPUT)),
      approve([{ approvalId: "apr_1", approved: true, input: { body: { name: "" } } }]),
      deps,
    ),
    /not valid/,
  );
});

Deno.test("continuation: browser results go only to browser-run tools waiting for them", async () => {
  const local = {
    type: "tool-localTool",
    toolCallId: "call_l",
    state: "input-available",
    input: {},
  };
  const outputs = (toolCallId: string) =>
    ({
      id: "chat1",
      trigger: "tool-outputs",
      outputs: [{ toolCallId, output: { data: { ok: true } } }],
    }) as ChatRequest;
  const plan = await continuationPlan(history(local), outputs("call_l"), deps);
  assert.equal((plan.continued.parts[0] as unknown as { state: string }).state, "output-available");
  await refused(
    continuationPlan(history(pending("apr_1", INPUT)), outputs("call_apr_1"), deps),
    /not waiting/,
  );
  await refused(continuationPlan(history(local), outputs("call_nope"), deps), /not waiting/);
});

Deno.test("continuation: an approved browser-run call needs its result from the browser", async () => {
  const part = pending("apr_1", INPUT);
  part.type = "tool-localTool";
  await refused(
    continuationPlan(history(part), approve([{ approvalId: "apr_1", approved: true }]), deps),
    /runs in the browser/,
  );
});
