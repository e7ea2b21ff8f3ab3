import assert from "node:assert/strict";
import { loadAgent } from "@/lib/agents/spec.ts";
import type { AgentConfig, JsonSchema } from "@/lib/agents/types.ts";
import { CONTACT_LIMITS } from "./input.ts";

const agent: AgentConfig = {
  id: "contact",
  name: "Contact",
  description: "Sends a message to the site owner.",
  spec: "static/agents/contact.json",
  baseUrl: "https://site.example",
  runIn: "server",
};

Deno.test("contact spec: validates and gives exactly the two tools, the POST needing approval", async () => {
  const { operations } = await loadAgent(agent);
  const byName = Object.fromEntries(operations.map((op) => [op.toolName, op]));
  assert.deepEqual(Object.keys(byName).sort(), ["getContactStatus", "sendMessageToOwner"]);

  const send = byName.sendMessageToOwner;
  assert.equal(send.method, "POST");
  assert.equal(send.pathTemplate, "/api/contact");
  assert.equal(send.needsApproval, true);
  assert.ok(send.summary && send.description && send.description.length > 200);
  assert.equal(send.requestBody?.required, true);

  const status = byName.getContactStatus;
  assert.equal(status.method, "GET");
  assert.equal(status.pathTemplate, "/api/contact/status");
  assert.equal(status.needsApproval, false);
  assert.equal(status.requestBody, undefined);
});

Deno.test("contact spec: the body schema states the server's own limits", async () => {
  const { operations } = await loadAgent(agent);
  const send = operations.find((op) => op.toolName === "sendMessageToOwner")!;
  const schema = send.requestBody!.schema;
  const properties = schema.properties as Record<string, JsonSchema>;
  assert.deepEqual([...(schema.required as string[])].sort(), ["email", "message", "name"]);
  assert.equal(schema.additionalProperties, false);
  for (const field of ["name", "email", "message"] as const) {
    assert.equal(properties[field].type, "string", field);
    assert.equal(properties[field].maxLength, CONTACT_LIMITS[field], field);
  }
  // The tool's input carries the body under `body`.
  const input = send.inputSchema.properties as Record<string, JsonSchema>;
  assert.ok(input.body, JSON.stringify(send.inputSchema));
});
