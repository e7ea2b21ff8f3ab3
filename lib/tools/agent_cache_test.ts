import assert from "node:assert/strict";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { AGENT_CACHE_PATH, cachedAgents, writeAgentCache } from "./agent_cache.ts";
import { loadAgents } from "./load_agents.ts";

const CONTACT = new URL("../../static/agents/contact.json", import.meta.url);

const contact: AgentConfig = {
  id: "contact",
  name: "Recado",
  description: "Envia um recado.",
  spec: "static/agents/contact.json",
  baseUrl: "self",
  runIn: "server",
};

/** A project root holding only the contact agent's spec. */
async function tempRoot(): Promise<URL> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/static/agents`, { recursive: true });
  await Deno.copyFile(CONTACT, `${dir}/static/agents/contact.json`);
  return new URL(`file://${dir}/`);
}

Deno.test("agent cache: gives back exactly what loadAgents built, with the owner's config", async () => {
  const root = await tempRoot();
  try {
    assert.equal(await cachedAgents([contact], root), null, "no cache before a build");
    const loaded = await loadAgents([contact], { root });
    assert.equal(await writeAgentCache([contact], loaded, root), true);
    const cached = await cachedAgents([contact], root);
    assert.deepEqual(cached, loaded);
    assert.equal(cached![0].agent, contact);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("agent cache: a changed spec, a changed config or another agent list is a miss", async () => {
  const root = await tempRoot();
  try {
    await writeAgentCache([contact], await loadAgents([contact], { root }), root);
    assert.equal(
      await cachedAgents([{ ...contact, approval: { getContactStatus: "always" } }], root),
      null,
    );
    assert.equal(await cachedAgents([], root), null);
    const spec = new URL("static/agents/contact.json", root);
    await Deno.writeTextFile(spec, (await Deno.readTextFile(spec)).replace("}", ' , "x-note": 1}'));
    assert.equal(await cachedAgents([contact], root), null);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("agent cache: a spec given by URL is never cached; an old cache file is removed", async () => {
  const root = await tempRoot();
  try {
    await writeAgentCache([contact], await loadAgents([contact], { root }), root);
    const remote = { ...contact, id: "remote", spec: "https://api.example.com/openapi.json" };
    assert.equal(await writeAgentCache([remote], [], root), false);
    await assert.rejects(() => Deno.stat(new URL(AGENT_CACHE_PATH, root)), Deno.errors.NotFound);
    assert.equal(await cachedAgents([remote], root), null);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
