import assert from "node:assert/strict";
import { constantTimeEqual, requireAdmin } from "./admin.ts";
import { HttpError } from "./errors.ts";

const TOKEN = "admin-token-0123456789";
const req = (authorization?: string) =>
  new Request("http://x/api/usage", { headers: authorization ? { authorization } : {} });

async function refused(r: Request, token: string | null = TOKEN) {
  await assert.rejects(
    () => requireAdmin(r, token),
    (e) => e instanceof HttpError && e.code === "unauthorized",
  );
}

Deno.test("requireAdmin: exactly `Bearer <token>`", async () => {
  await requireAdmin(req(`Bearer ${TOKEN}`), TOKEN);
  await requireAdmin(req(`bearer ${TOKEN}`), TOKEN); // the scheme is case-insensitive (RFC 9110)
  await refused(req(TOKEN)); // the bare token
  await refused(req(`Basic ${TOKEN}`));
  await refused(req(`Bearer  ${TOKEN}`));
  await refused(req(`Bearer ${TOKEN}x`));
  await refused(req(`Bearer ${TOKEN.slice(0, -1)}`));
  await refused(req("Bearer "));
  await refused(req());
  await refused(req(`Bearer ${TOKEN}`), null); // unset token: disabled
});

Deno.test("constantTimeEqual compares whole strings of any length", async () => {
  assert.equal(await constantTimeEqual("abc", "abc"), true);
  assert.equal(await constantTimeEqual("abc", "abd"), false);
  assert.equal(await constantTimeEqual("abc", "abcd"), false);
  assert.equal(await constantTimeEqual("", ""), true);
});
