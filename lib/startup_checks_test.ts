import assert from "node:assert/strict";
import {
  estimatedBits,
  originProblem,
  refusalMessage,
  secretProblem,
  startupProblems,
} from "./startup_checks.ts";
import { productionReason } from "@/lib/http/production.ts";

const strong = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));

Deno.test("startup checks: production is Deno Deploy or APP_ENV=production, nothing else", () => {
  assert.match(productionReason({ DENO_DEPLOYMENT_ID: "abc" })!, /DENO_DEPLOYMENT_ID/);
  assert.equal(productionReason({ APP_ENV: " Production " }), "APP_ENV=production");
  assert.equal(productionReason({}), null);
  assert.equal(productionReason({ APP_ENV: "staging", NODE_ENV: "production" }), null);
});

Deno.test("startup checks: nothing is checked outside production", () => {
  assert.deepEqual(startupProblems({}, { allowedOrigins: ["http://x"] }), []);
});

Deno.test("startup checks: secrets must be present, long and not guessable", () => {
  assert.match(secretProblem("S", undefined)!, /S is not set: generate one/);
  assert.match(secretProblem("S", "   ")!, /not set/);
  assert.match(secretProblem("S", "abc123")!, /S has 6 characters; it needs at least 32/);
  assert.match(secretProblem("S", "s".repeat(40))!, /guessable \(about 0 bits/);
  assert.match(secretProblem("S", "password".repeat(4))!, /guessable/);
  assert.match(secretProblem("S", "aB3$".repeat(10))!, /guessable/, "a repeated unit");
  assert.match(secretProblem("S", crypto.randomUUID())!, /UUID/);
  for (let i = 0; i < 200; i++) assert.equal(secretProblem("S", strong()), null);
});

Deno.test("startup checks: the entropy estimate ranks random above patterned", () => {
  assert.equal(estimatedBits(""), 0);
  assert.equal(estimatedBits("aaaa"), 0);
  assert.equal(estimatedBits("abcd"), 8);
  assert.ok(estimatedBits(strong()) > 180);
});

Deno.test("startup checks: allowedOrigins must be bare https origins", () => {
  assert.equal(originProblem("https://example.com"), null);
  assert.equal(originProblem("https://example.com:8443"), null);
  assert.match(originProblem("http://example.com")!, /"http:\/\/example.com" is not https/);
  assert.match(originProblem("example.com")!, /is not a URL/);
  assert.match(
    originProblem("https://example.com/page")!,
    /not a bare origin; write "https:\/\/example.com"/,
  );
  assert.match(originProblem("https://Example.com")!, /write "https:\/\/example.com"/);
});

Deno.test("startup checks: every problem is listed at once, with the reason for production", () => {
  const env = { DENO_DEPLOYMENT_ID: "d1", SESSION_SECRET: "short" };
  const problems = startupProblems(env, {
    allowedOrigins: ["https://ok.example", "http://bad.example"],
  });
  assert.equal(problems.length, 3);
  assert.match(problems[0], /^SESSION_SECRET has 5 characters/);
  assert.match(problems[1], /^ADMIN_TOKEN is not set/);
  assert.match(problems[2], /http:\/\/bad.example/);
  const message = refusalMessage(env, problems);
  assert.match(message, /^Refusing to start in production \(DENO_DEPLOYMENT_ID is set/);
  assert.equal(message.split("\n  - ").length, 4);
});

Deno.test("startup checks: a strong config passes; one secret for both is refused", () => {
  const env = { APP_ENV: "production", SESSION_SECRET: strong(), ADMIN_TOKEN: strong() };
  assert.deepEqual(startupProblems(env, { allowedOrigins: ["https://site.example"] }), []);
  const same = { ...env, ADMIN_TOKEN: env.SESSION_SECRET };
  assert.deepEqual(startupProblems(same, { allowedOrigins: [] }), [
    "SESSION_SECRET and ADMIN_TOKEN are the same value: give each its own secret.",
  ]);
});
