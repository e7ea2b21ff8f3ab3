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

Deno.test("admin: importing the module makes no key (a cold start does not pay for it)", async () => {
  // A fresh process: this one has imported admin.ts already.
  const code = `
    const calls = [];
    for (const name of ["generateKey", "importKey"]) {
      const real = crypto.subtle[name].bind(crypto.subtle);
      crypto.subtle[name] = (...args) => (calls.push(name), real(...args));
    }
    const { constantTimeEqual } = await import(${
    JSON.stringify(import.meta.resolve("./admin.ts"))
  });
    const atImport = calls.length;
    const equal = await constantTimeEqual("a", "a");
    console.log(JSON.stringify({ atImport, after: calls, equal }));
  `;
  const out = await new Deno.Command(Deno.execPath(), { args: ["eval", code], stderr: "inherit" })
    .output();
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
    atImport: 0,
    after: ["importKey"],
    equal: true,
  });
});
