/** `deno task build` checks the agents' specs before anything else. */
import assert from "node:assert/strict";
import { checkAgentSpecs } from "@/scripts/build.ts";

Deno.test("build: the shipped agents' specs load (the contact agent has two tools)", async () => {
  assert.deepEqual(await checkAgentSpecs(), { contact: 2 });
});

Deno.test("build: an invalid agent spec stops the build with a message naming the agent", async () => {
  await assert.rejects(
    () =>
      checkAgentSpecs([{
        id: "shop",
        name: "Shop",
        description: "Orders.",
        spec: "static/agents/missing.yaml",
        baseUrl: "https://api.example.com",
        runIn: "server",
      }]),
    /Agent "shop": the spec file "static\/agents\/missing\.yaml" does not exist\. Fix/,
  );
  // Two agents offering the same tool name.
  const contact = {
    id: "contact",
    name: "C",
    description: "C",
    spec: "static/agents/contact.json",
  };
  await assert.rejects(
    () =>
      checkAgentSpecs([
        { ...contact, baseUrl: "self", runIn: "server" },
        { ...contact, id: "copy", baseUrl: "https://api.example.com", runIn: "server" },
      ]),
    /Agent "copy", operation "sendMessageToOwner": agent "contact" already has a tool/,
  );
});
