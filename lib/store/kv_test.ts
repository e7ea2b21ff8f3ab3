import assert from "node:assert/strict";
import { isKvConnectUrl, kvConnectProblem, kvWatchSeesEveryWriter, openKv } from "./kv.ts";

Deno.test("kv: DENO_KV_PATH names a KV Connect server when it is an http(s) URL", () => {
  assert.equal(isKvConnectUrl("https://api.deno.com/v2/databases/abc/connect"), true);
  assert.equal(isKvConnectUrl("HTTP://127.0.0.1:4512"), true);
  assert.equal(isKvConnectUrl(":memory:"), false);
  assert.equal(isKvConnectUrl("/var/lib/app/kv.sqlite"), false);
  assert.equal(isKvConnectUrl("https.sqlite"), false);
});

Deno.test("kv: kv.watch sees every writer of an in-memory or remote KV, not of a local file", () => {
  assert.equal(kvWatchSeesEveryWriter(":memory:"), true);
  assert.equal(kvWatchSeesEveryWriter("https://kv.example.com/db"), true);
  assert.equal(kvWatchSeesEveryWriter("/var/data/kv.sqlite"), false);
  // No path: Deno Deploy's own KV there, a local file everywhere else.
  const deployed = Deno.env.get("DENO_DEPLOYMENT_ID");
  try {
    Deno.env.delete("DENO_DEPLOYMENT_ID");
    assert.equal(kvWatchSeesEveryWriter(), false);
    Deno.env.set("DENO_DEPLOYMENT_ID", "abc123");
    assert.equal(kvWatchSeesEveryWriter(), true);
  } finally {
    if (deployed === undefined) Deno.env.delete("DENO_DEPLOYMENT_ID");
    else Deno.env.set("DENO_DEPLOYMENT_ID", deployed);
  }
});

Deno.test("kv: a KV Connect URL needs its token, and https unless on loopback", () => {
  assert.equal(kvConnectProblem("https://api.deno.com/v2/databases/abc/connect", "ddo_x"), null);
  assert.equal(kvConnectProblem("http://localhost:4512", "t"), null);
  assert.equal(kvConnectProblem("http://127.0.0.1:4512", "t"), null);
  assert.equal(kvConnectProblem("http://[::1]:4512", "t"), null);
  assert.match(
    kvConnectProblem("https://kv.example.com", undefined)!,
    /DENO_KV_ACCESS_TOKEN is not set/,
  );
  assert.match(kvConnectProblem("http://kv.example.com", "t")!, /uses http to a remote host/);
  assert.match(kvConnectProblem("https://", "t")!, /is not a valid URL/);
});

Deno.test({
  name: "kv: openKv refuses a KV Connect URL without a token before Deno tries it",
  // Deno reads the token from the process environment: a runner that has one cannot test this.
  ignore: Deno.env.get("DENO_KV_ACCESS_TOKEN") !== undefined,
  async fn() {
    await assert.rejects(
      () => openKv("https://kv.example.invalid/db"),
      /DENO_KV_PATH is the KV Connect URL "https:\/\/kv.example.invalid\/db"/,
    );
  },
});
