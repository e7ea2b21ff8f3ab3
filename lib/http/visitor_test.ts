import assert from "node:assert/strict";
import {
  clearVisitorCookies,
  createVisitorSigner,
  existingVisitor,
  migrateVisitorCookie,
  readCookie,
  resolveVisitor,
  SECURE_VISITOR_COOKIE,
  secureCookiesFromEnv,
  VISITOR_COOKIE,
} from "./visitor.ts";

const SECRET = "s".repeat(40);
const withCookie = (cookie: string) => new Request("http://x/", { headers: { cookie } });

Deno.test("readCookie: malformed percent-encoding is no cookie, never a throw", () => {
  for (const value of ["%zz", "%", "%E0%A4%A", "abc%"]) {
    assert.equal(readCookie(withCookie(`visitor=${value}`), "visitor"), null, value);
  }
  assert.equal(readCookie(withCookie("a=1; visitor=%41b"), "visitor"), "Ab");
  assert.equal(readCookie(withCookie("=x; ;visitor"), "visitor"), null);
});

Deno.test("secureCookiesFromEnv: production or COOKIE_SECURE=true; COOKIE_SECURE=false wins", () => {
  assert.equal(secureCookiesFromEnv({}), false);
  assert.equal(secureCookiesFromEnv({ DENO_DEPLOYMENT_ID: "abc" }), true);
  assert.equal(secureCookiesFromEnv({ COOKIE_SECURE: "true" }), true);
  // Self-hosted production is production too: the startup checks and the cookies agree.
  assert.equal(secureCookiesFromEnv({ APP_ENV: "production" }), true);
  assert.equal(secureCookiesFromEnv({ APP_ENV: "production", COOKIE_SECURE: "false" }), false);
  assert.equal(secureCookiesFromEnv({ DENO_DEPLOYMENT_ID: "abc", COOKIE_SECURE: "false" }), false);
  assert.throws(() => secureCookiesFromEnv({ COOKIE_SECURE: "yes" }), /COOKIE_SECURE must be/);
});

Deno.test("resolveVisitor: Secure cookies are __Host-visitor whatever req.url says", async () => {
  const signer = await createVisitorSigner(SECRET, { secure: true });
  const fresh = await resolveVisitor(new Request("http://behind-proxy/"), signer);
  assert.match(fresh.setCookie!, /^__Host-visitor=[^;]+; Path=\/; .*; Secure$/);
  assert.doesNotMatch(fresh.setCookie!, /Domain=/i);
  // Explicit options win over the signer's default.
  const plain = await resolveVisitor(new Request("https://x/"), signer, { secure: false });
  assert.match(plain.setCookie!, /^visitor=/);
  assert.doesNotMatch(plain.setCookie!, /Secure/);
});

Deno.test("a legacy visitor cookie keeps its id and is re-issued as __Host-visitor", async () => {
  const signer = await createVisitorSigner(SECRET, { secure: true });
  const signed = await signer.sign("v".repeat(24));
  const legacy = withCookie(`${VISITOR_COOKIE}=${signed}`);
  assert.equal(await existingVisitor(legacy, signer), "v".repeat(24));
  const resolved = await resolveVisitor(legacy, signer);
  assert.equal(resolved.id, "v".repeat(24));
  assert.equal(resolved.setCookie?.split(";")[0], `${SECURE_VISITOR_COOKIE}=${signed}`);
  assert.equal(
    (await migrateVisitorCookie(legacy, signer, true))?.split(";")[0],
    `${SECURE_VISITOR_COOKIE}=${signed}`,
  );
  // Already moved: nothing to set; a forged __Host- cookie falls back to the legacy one.
  const moved = withCookie(`${SECURE_VISITOR_COOKIE}=${signed}; ${VISITOR_COOKIE}=${signed}`);
  assert.equal((await resolveVisitor(moved, signer)).setCookie, null);
  assert.equal(await migrateVisitorCookie(moved, signer, true), null);
  const forged = withCookie(`${SECURE_VISITOR_COOKIE}=${"w".repeat(24)}.AAAA; visitor=${signed}`);
  assert.equal(await existingVisitor(forged, signer), "v".repeat(24));
  assert.equal(await migrateVisitorCookie(legacy, signer, false), null);
});

Deno.test("clearVisitorCookies forgets both names when Secure", () => {
  assert.deepEqual(clearVisitorCookies(false).map((c) => c.split("=")[0]), ["visitor"]);
  const secure = clearVisitorCookies(true);
  assert.deepEqual(secure.map((c) => c.split("=")[0]), ["__Host-visitor", "visitor"]);
  for (const c of secure) assert.match(c, /Max-Age=0.*Secure/);
});
