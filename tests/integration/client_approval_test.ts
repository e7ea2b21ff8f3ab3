/**
 * The island's Chat through tool approvals, over a fake /api/chat that answers
 * with canned UI message streams: approve, deny with a reason, two approvals
 * sent in one request, an edit sent as `input`, and browser-run agents whose
 * request goes to a loopback "agent" server before the outputs are posted.
 */
import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { Chat } from "@/lib/client/chat.ts";
import { toolParts } from "@/lib/client/approval.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { approvalTurn, descriptorFor, PROPOSED, sseResponse } from "../support/approvals.ts";

type Body = Record<string, unknown>;

/** A fake endpoint: records each POST body and answers with the next canned stream. */
function fakeServer(streams: UIMessageChunk[][]) {
  const bodies: Body[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    const next = streams.shift();
    if (!next) return Promise.resolve(new Response("no more", { status: 500 }));
    return Promise.resolve(sseResponse(next));
  };
  return { bodies, fetch };
}

const M = "a_msg1";
const question: ChatMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Manda" }] };

async function chatAwaiting(
  calls: Array<{ toolCallId: string; approvalId: string; runIn?: "server" | "browser" }>,
  after: UIMessageChunk[][],
  opts: { baseUrl?: string; agentFetch?: typeof fetch } = {},
) {
  const first = approvalTurn(
    M,
    calls.map((c) => ({
      ...c,
      descriptor: descriptorFor(PROPOSED, {
        runIn: c.runIn,
        baseUrl: opts.baseUrl,
        ...(c.runIn === "browser" ? { headers: { "X-Site": "demo" } } : {}),
      }),
    })),
  );
  const server = fakeServer([first, ...after]);
  const chat = new Chat<ChatMessage>({
    id: "c1",
    messages: [],
    fetch: server.fetch,
    agentFetch: opts.agentFetch,
    body: () => ({ model: "local/test" }),
  });
  await chat.sendMessage({ text: "Manda um recado" });
  assert.equal(chat.status, "ready", String(chat.error));
  assert.equal(toolParts(chat.messages[1])[0].state, "approval-requested");
  return { chat, server };
}

const denied = (toolCallId: string): UIMessageChunk[] => [
  { type: "start", messageId: M },
  { type: "tool-output-denied", toolCallId },
  { type: "start-step" },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Ok, não enviei." },
  { type: "text-end", id: "t" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop" },
];

const sent = (toolCallId: string, output: unknown = { data: { id: 7 } }): UIMessageChunk[] => [
  { type: "start", messageId: M },
  { type: "tool-output-available", toolCallId, output },
  { type: "start-step" },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Enviado." },
  { type: "text-end", id: "t" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop" },
];

Deno.test("approval client: approve posts approval-responses and continues the same message", async () => {
  const { chat, server } = await chatAwaiting([{ toolCallId: "t1", approvalId: "apr_1" }], [
    sent("t1"),
  ]);
  await chat.addToolApprovalResponse({ id: "apr_1", approved: true });
  assert.equal(server.bodies.length, 2);
  assert.deepEqual(server.bodies[1], {
    model: "local/test",
    id: "c1",
    trigger: "approval-responses",
    approvals: [{ approvalId: "apr_1", approved: true }],
  });
  assert.equal(chat.messages.length, 2, "no new message");
  const answer = chat.messages[1];
  assert.equal(answer.id, M);
  const [part] = toolParts(answer);
  assert.equal(part.state, "output-available");
  assert.deepEqual(part.output, { data: { id: 7 } });
  assert.equal(part.approval?.approved, true);
  assert.ok(part.approval?.descriptor, "the descriptor stays on the part");
  assert.deepEqual(part.input, PROPOSED);
  assert.equal(answer.parts.at(-1)?.type, "text");
});

Deno.test("approval client: deny with a reason sends it and shows output-denied", async () => {
  const { chat, server } = await chatAwaiting([{ toolCallId: "t1", approvalId: "apr_1" }], [
    denied("t1"),
  ]);
  await chat.addToolApprovalResponse({ id: "apr_1", approved: false, reason: "Mudei de ideia" });
  assert.deepEqual(server.bodies[1].approvals, [
    { approvalId: "apr_1", approved: false, reason: "Mudei de ideia" },
  ]);
  const [part] = toolParts(chat.messages[1]);
  assert.equal(part.state, "output-denied");
  assert.equal(part.approval?.reason, "Mudei de ideia");
});

Deno.test("approval client: two approvals in a step are sent together, after the second answer", async () => {
  const { chat, server } = await chatAwaiting([
    { toolCallId: "t1", approvalId: "apr_1" },
    { toolCallId: "t2", approvalId: "apr_2" },
  ], [[...sent("t1").slice(0, 2), { type: "tool-output-denied", toolCallId: "t2" }, {
    type: "finish",
  }]]);
  await chat.addToolApprovalResponse({ id: "apr_2", approved: false });
  assert.equal(server.bodies.length, 1, "nothing sent while one approval is pending");
  const states = toolParts(chat.messages[1]).map((p) => p.state);
  assert.deepEqual(states, ["approval-requested", "approval-responded"]);
  await chat.addToolApprovalResponse({ id: "apr_1", approved: true });
  assert.equal(server.bodies.length, 2);
  assert.deepEqual(server.bodies[1].approvals, [
    { approvalId: "apr_1", approved: true },
    { approvalId: "apr_2", approved: false },
  ]);
  assert.deepEqual(toolParts(chat.messages[1]).map((p) => p.state), [
    "output-available",
    "output-denied",
  ]);
  await assert.rejects(
    chat.addToolApprovalResponse({ id: "apr_1", approved: true }),
    /No tool call awaits the approval "apr_1"/,
  );
  await assert.rejects(chat.addToolApprovalResponse({ id: "apr_forged", approved: true }));
  assert.equal(server.bodies.length, 2);
});

Deno.test("approval client: an approved edit sends the new input and shows it", async () => {
  const { chat, server } = await chatAwaiting([{ toolCallId: "t1", approvalId: "apr_1" }], [
    sent("t1"),
  ]);
  const edited = { box: "owner", body: { ...PROPOSED.body, message: "Outro texto" } };
  await chat.addToolApprovalResponse({ id: "apr_1", approved: true, input: edited });
  assert.deepEqual(server.bodies[1].approvals, [
    { approvalId: "apr_1", approved: true, input: edited },
  ]);
  const [part] = toolParts(chat.messages[1]);
  assert.deepEqual(part.input, edited);
  assert.equal(part.approval?.edited, true);
});

Deno.test("approval client: a failed send leaves the response to retry with continueAfterApprovals", async () => {
  const { chat, server } = await chatAwaiting([{ toolCallId: "t1", approvalId: "apr_1" }], []);
  await chat.addToolApprovalResponse({ id: "apr_1", approved: true });
  assert.equal(chat.status, "error");
  assert.equal(toolParts(chat.messages[1])[0].state, "approval-responded");
  server.bodies.length = 0;
  assert.equal(await chat.continueAfterApprovals(), true);
  assert.equal(server.bodies[0].trigger, "approval-responses");
});

/** A loopback "agent" API recording what it receives. */
function agentServer(answer: (req: Request) => Response | Promise<Response>) {
  const received: Array<{ method: string; url: string; headers: Headers; body: string }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    received.push({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: await req.text(),
    });
    return answer(req);
  });
  return { received, server, baseUrl: `http://127.0.0.1:${server.addr.port}/v1` };
}

Deno.test("approval client: an approved browser-run call goes to the agent, then its output is posted", async () => {
  const agent = agentServer(() => Response.json({ id: 42 }, { status: 201 }));
  try {
    const { chat, server } = await chatAwaiting(
      [{ toolCallId: "t1", approvalId: "apr_1", runIn: "browser" }],
      [sent("t1", { data: { id: 42 } })],
      { baseUrl: agent.baseUrl },
    );
    const edited = { ...PROPOSED, urgent: true };
    await chat.addToolApprovalResponse({ id: "apr_1", approved: true, input: edited });
    assert.equal(agent.received.length, 1, "the request was sent exactly once");
    const got = agent.received[0];
    assert.equal(got.method, "POST");
    assert.equal(got.url, `${agent.baseUrl}/boxes/owner%20inbox%2F1/messages?urgent=true`);
    assert.deepEqual(JSON.parse(got.body), PROPOSED.body);
    assert.equal(got.headers.get("x-site"), "demo");
    assert.match(got.headers.get("x-assistant-context") ?? "", /"chatId":"c1"/);
    assert.deepEqual(server.bodies[1], {
      model: "local/test",
      id: "c1",
      trigger: "tool-outputs",
      outputs: [{ toolCallId: "t1", output: { data: { id: 42 } } }],
      approvals: [{ approvalId: "apr_1", approved: true, input: edited }],
    });
    assert.equal(toolParts(chat.messages[1])[0].state, "output-available");
  } finally {
    await agent.server.shutdown();
  }
});

Deno.test("approval client: a browser-run call needing no approval runs after the turn; errors are errors", async () => {
  const agent = agentServer(() => Response.json({ message: "Box is full" }, { status: 409 }));
  try {
    const descriptor = descriptorFor(PROPOSED, {
      runIn: "browser",
      baseUrl: agent.baseUrl,
      headers: {},
    });
    const turn: UIMessageChunk[] = [
      { type: "start", messageId: M },
      { type: "start-step" },
      {
        type: "tool-input-available",
        toolCallId: "t1",
        toolName: "leave_message",
        input: PROPOSED,
        toolMetadata: { approvalDescriptor: descriptor },
      } as unknown as UIMessageChunk,
      { type: "finish-step" },
      { type: "finish", finishReason: "tool-calls" },
    ];
    const server = fakeServer([turn, [
      { type: "start", messageId: M },
      { type: "tool-output-error", toolCallId: "t1", errorText: "Box is full" },
      { type: "finish" },
    ]]);
    const chat = new Chat<ChatMessage>({ id: "c1", messages: [question], fetch: server.fetch });
    await chat.sendMessage({ text: "Manda" });
    assert.equal(agent.received.length, 1);
    assert.deepEqual(server.bodies[1], {
      id: "c1",
      trigger: "tool-outputs",
      outputs: [{ toolCallId: "t1", output: { error: { status: 409, message: "Box is full" } } }],
    });
    assert.equal(toolParts(chat.messages.at(-1))[0].state, "output-error");
  } finally {
    await agent.server.shutdown();
  }
});
