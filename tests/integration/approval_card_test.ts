/**
 * The approval card: rendered by the server on /c/:id while an approval is
 * pending (readable without JS, its bundle imported, no marker of its own inside
 * the message list), its outcomes per state, and the edit form's reading.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { h } from "preact";
import ToolApproval from "@/islands/ToolApproval.tsx";
import { formFields, formValues, readForm } from "@/lib/client/approval_form.ts";
import { requestToShow } from "@/lib/client/approval_request.ts";
import { startTestServer } from "../support/server.ts";
import { CookieJar, newChatId, postChat, testConfig, userMessage } from "../support/chat_client.ts";
import { approvalTurn, descriptorFor, PROPOSED } from "../support/approvals.ts";
import { MessageBuilder } from "@/lib/protocol/message_builder.ts";

const URL_SENT = "https://api.example.org/v1/boxes/owner%20inbox%2F1/messages";

Deno.test("approval card: /c/:id with a pending approval renders the card on the server and imports only its bundle", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    const res = await postChat(server.url, {
      id,
      trigger: "submit-message",
      message: userMessage("Manda um recado"),
    }, { jar });
    await res.text();
    const [, answer] = await server.services.store.loadMessages(id);
    const builder = new MessageBuilder(undefined, answer.id);
    for (
      const c of approvalTurn(answer.id, [{
        toolCallId: "t1",
        approvalId: "apr_1",
        descriptor: descriptorFor(PROPOSED),
      }])
    ) builder.apply(c);
    assert.ok(await server.services.store.replaceMessage(id, answer.id, builder.message));

    const page = await (await jar.fetch(`${server.url}/c/${id}`)).text();
    assert.match(
      page,
      /<section[^>]*class="approval-card approval-approval-requested"[^>]*role="group"/,
    );
    assert.ok(page.includes(URL_SENT), "the final URL, encoded");
    assert.ok(page.includes("Authorization:</dt> <dd>••••"), "secret headers redacted");
    assert.ok(page.includes("X-Site:</dt> <dd>demo"));
    assert.ok(
      page.includes("&quot;message&quot;: &quot;Olá! Quero um orçamento.&quot;"),
      "pretty body",
    );
    for (const label of ["Aprovar e enviar", "Recusar", "Editar"]) assert.ok(page.includes(label));
    assert.ok(!page.includes('data-island="ToolApproval"'), "hydrated by the message list");
    assert.match(page, /import i\d from "\/_islands\/ToolApproval-[0-9a-f]+\.js"/);

    const home = await (await jar.fetch(`${server.url}/`)).text();
    assert.ok(!home.includes("ToolApproval"), "the first visit does not load the card");
  } finally {
    await server.close();
  }
});

const render = (props: Partial<Parameters<typeof ToolApproval>[0]>) =>
  renderToString(h(ToolApproval, {
    locale: "en",
    toolName: "leave_message",
    state: "approval-requested",
    approval: { id: "apr_1", descriptor: descriptorFor(PROPOSED) },
    input: PROPOSED,
    ...props,
  }));

Deno.test("approval card: each state shows its outcome", () => {
  assert.match(render({}), /May I send this request\?[\s\S]*Approve and send/);
  const denied = render({
    state: "output-denied",
    approval: { id: "apr_1", approved: false, reason: "Not now" },
  });
  assert.match(denied, /You denied it; nothing was sent. Reason: Not now/);
  assert.ok(!denied.includes("Approve and send"));
  const sent = render({ state: "output-available", output: { data: { id: 42 } } });
  assert.match(sent, /Approved and sent\.[\s\S]*&quot;id&quot;: 42/);
  const failed = render({
    state: "output-available",
    output: { error: { status: 409, message: "Box is full" } },
  });
  assert.match(failed, /The request failed\.[\s\S]*409 Box is full/);
  assert.match(render({ state: "output-error", errorText: "Timeout" }), /failed[\s\S]*Timeout/);
  assert.match(
    render({ state: "approval-responded", approval: { id: "a", approved: true } }),
    /Sending/,
  );
  const expired = descriptorFor(PROPOSED);
  expired.expiresAt = Date.now() - 1;
  const old = render({ approval: { id: "apr_1", descriptor: expired } });
  assert.match(old, /expired/);
  assert.ok(!old.includes("Approve and send"));
});

Deno.test("approval card: the edit form reads typed values, shows problems by field, rebuilds the request", () => {
  const descriptor = descriptorFor(PROPOSED);
  const schema = descriptor.edit.operation.inputSchema;
  const fields = formFields(schema);
  assert.deepEqual(fields.map((f) => [f.key, f.kind, f.required]), [
    ["box", "string", true],
    ["urgent", "boolean", false],
    ["body.name", "string", true],
    ["body.email", "string", true],
    ["body.message", "text", true],
    ["body.copies", "integer", false],
  ]);
  const values = formValues(fields, PROPOSED);
  assert.equal(values["body.email"], "ana@example.org");
  const messages = { notNumber: "NaN", invalidJson: "bad JSON" };
  const bad = readForm(
    schema,
    fields,
    { ...values, "body.email": "nope", "body.copies": "9" },
    messages,
  );
  assert.ok("problems" in bad);
  assert.deepEqual(Object.keys(bad.problems).sort(), ["body.copies", "body.email"]);
  assert.ok("problems" in readForm(schema, fields, { ...values, "body.copies": "x" }, messages));
  const good = readForm(
    schema,
    fields,
    { ...values, urgent: "true", "body.copies": "2" },
    messages,
  );
  assert.ok("input" in good);
  assert.deepEqual(good.input, {
    ...PROPOSED,
    urgent: true,
    body: { ...PROPOSED.body, copies: 2 },
  });
  const shown = requestToShow(descriptor, good.input);
  assert.ok("request" in shown);
  assert.equal(shown.request.url, `${URL_SENT}?urgent=true`);
  assert.equal(shown.request.headers.Authorization, "••••", "stays redacted");
  assert.match(shown.request.body ?? "", /"copies": 2/);
  const missing = requestToShow(descriptor, { body: PROPOSED.body });
  assert.ok("error" in missing && missing.error.parameter === "box");
});
