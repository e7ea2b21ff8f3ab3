import assert from "node:assert/strict";
import { bearerVisitorToken, createVisitorTokens, VISITOR_TOKEN_PREFIX } from "./visitor_token.ts";
import { createVisitorSigner, existingVisitor, resolveVisitor } from "./visitor.ts";
import { HttpError } from "./errors.ts";

const SECRET = "s".repeat(40);
const bearer = (token: string) =>
  new Request("http://x/", { headers: { authorization: `Bearer ${token}` } });

Deno.test("visitor tokens: issued, verified, revoked for every token of the visitor", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const tokens = await createVisitorTokens(SECRET, kv);
    const a = await tokens.issue();
    const b = await tokens.issue(a.visitorId);
    const other = await tokens.issue();
    assert.ok(a.token.startsWith(VISITOR_TOKEN_PREFIX));
    assert.equal(await tokens.verify(a.token), a.visitorId);
    assert.equal(await tokens.verify(b.token), a.visitorId);
    await tokens.revoke(a.visitorId);
    assert.equal(await tokens.verify(a.token), null, "revoked");
    assert.equal(await tokens.verify(b.token), null, "every earlier token of the visitor");
    assert.equal(await tokens.verify(other.token), other.visitorId, "other visitors unaffected");
    const again = await tokens.issue(a.visitorId);
    assert.equal(await tokens.verify(again.token), a.visitorId, "a token issued after works");
  } finally {
    kv.close();
  }
});

Deno.test("visitor tokens: forged, tampered, expired or foreign-keyed tokens are refused", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let now = 1_000_000;
    const tokens = await createVisitorTokens(SECRET, kv, { clock: () => now });
    const { token, visitorId } = await tokens.issue();
    const [id, gen, exp, mac] = token.slice(VISITOR_TOKEN_PREFIX.length).split(".");
    const flip = mac[0] === "A" ? "B" + mac.slice(1) : "A" + mac.slice(1);
    const forged = [
      `${VISITOR_TOKEN_PREFIX}${id}.${gen}.${exp}.${flip}`,
      `${VISITOR_TOKEN_PREFIX}${"x".repeat(24)}.${gen}.${exp}.${mac}`,
      `${VISITOR_TOKEN_PREFIX}${id}.1.${exp}.${mac}`,
      `${VISITOR_TOKEN_PREFIX}${id}.${gen}.${Number(exp) + 1}.${mac}`,
      `${id}.${gen}.${exp}.${mac}`,
      `${VISITOR_TOKEN_PREFIX}${id}.${gen}.${exp}`,
      "",
    ];
    for (const f of forged) assert.equal(await tokens.verify(f), null, f);
    const otherKey = await createVisitorTokens("t".repeat(40), kv, { clock: () => now });
    assert.equal(await otherKey.verify(token), null, "signed with another secret");
    // The cookie's signature is not a token's: a cookie value never passes as one.
    const cookie = await (await createVisitorSigner(SECRET)).sign(visitorId);
    assert.equal(await tokens.verify(`${VISITOR_TOKEN_PREFIX}${cookie}`), null);
    assert.equal(await tokens.verify(token), visitorId);
    now += 366 * 24 * 60 * 60 * 1000;
    assert.equal(await tokens.verify(token), null, "expired after a year");
  } finally {
    kv.close();
  }
});

Deno.test("visitor identity: a token wins over the cookie; a bad one is 401, never a new visitor", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const tokens = await createVisitorTokens(SECRET, kv);
    const signer = await createVisitorSigner(SECRET, { tokens });
    const { token, visitorId } = await tokens.issue();
    const cookie = await signer.sign("c".repeat(24));
    const both = new Request("http://x/", {
      headers: { authorization: `Bearer ${token}`, cookie: `visitor=${cookie}` },
    });
    assert.equal(await existingVisitor(both, signer), visitorId);
    assert.deepEqual(await resolveVisitor(bearer(token), signer), {
      id: visitorId,
      setCookie: null,
    });
    await tokens.revoke(visitorId);
    for (const check of [existingVisitor, resolveVisitor]) {
      await assert.rejects(
        () => check(bearer(token), signer),
        (e) => e instanceof HttpError && e.code === "unauthorized",
      );
    }
    // An admin's bearer token is not a visitor token: the cookie decides.
    const admin = new Request("http://x/", {
      headers: { authorization: "Bearer admin-token-0123", cookie: `visitor=${cookie}` },
    });
    assert.equal(bearerVisitorToken(admin), null);
    assert.equal(await existingVisitor(admin, signer), "c".repeat(24));
  } finally {
    kv.close();
  }
});
