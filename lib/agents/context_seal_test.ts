import assert from "node:assert/strict";
import { CONTEXT_SEAL_TTL_MS, createContextSealer } from "./context_seal.ts";

const HEADER = '{"chatId":"c1","locale":"pt-BR","visitor":"v-hash"}';

Deno.test("context seal: valid for exactly its header, until it expires, under its secret", async () => {
  const sealer = createContextSealer("a-session-secret-of-at-least-32-chars!");
  const now = 1_000_000;
  const seal = await sealer.seal(HEADER, now);
  assert.equal(await sealer.verify(HEADER, seal, now), true);
  assert.equal(await sealer.verify(HEADER, seal, now + CONTEXT_SEAL_TTL_MS - 1), true);
  assert.equal(await sealer.verify(HEADER, seal, now + CONTEXT_SEAL_TTL_MS), false, "expired");
  assert.equal(await sealer.verify(HEADER.replace("c1", "c2"), seal, now), false, "another chat");
  const [expiresAt, mac] = seal.split(".");
  assert.equal(await sealer.verify(HEADER, `${Number(expiresAt) + 1}.${mac}`, now), false);
  for (const bad of ["", "x", `${expiresAt}.`, `${expiresAt}.${mac}=`, `-1.${mac}`]) {
    assert.equal(await sealer.verify(HEADER, bad, now), false, bad);
  }
  const other = createContextSealer("another-session-secret-of-32-chars!!");
  assert.equal(await other.verify(HEADER, seal, now), false, "another server's key");
});
