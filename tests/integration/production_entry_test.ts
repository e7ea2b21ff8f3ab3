/**
 * The production entry (main.ts) as a host runs it: a child process that may read the
 * project and nothing else, write nothing (KV in memory), with production's startup
 * checks on. CI also runs this file on Deno Deploy's Deno version (.ci/run).
 */
import assert from "node:assert/strict";
import { parseSseText, streamedText } from "../support/chat_client.ts";
import { exitOf, spawnProductionEntry } from "../support/production_process.ts";

/** A secret as the README says to make one (`openssl rand -base64 32`). */
function strongSecret(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}

function productionEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    APP_ENV: "production",
    SESSION_SECRET: strongSecret(),
    ADMIN_TOKEN: strongSecret(),
    DENO_KV_PATH: ":memory:",
    ...extra,
  };
}

Deno.test({
  name: "production entry: read-only run serves /, answers a chat turn offline, keeps it in KV",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const env = productionEnv();
    const proc = spawnProductionEntry(env);
    try {
      const base = `http://127.0.0.1:${await proc.port}`;
      const home = await fetch(`${base}/`);
      assert.equal(home.status, 200);
      assert.match(await home.text(), /<html/i);

      const health = await (await fetch(`${base}/api/health`)).json();
      assert.equal(health.kv, "ok");
      assert.equal(health.index.status, "ok", "the built search index is read from the project");
      assert.equal(health.defaultModel, "local");

      const chatId = "prod" + crypto.randomUUID().replaceAll("-", "").slice(0, 16);
      const res = await fetch(`${base}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: chatId,
          message: {
            id: "u1",
            role: "user",
            parts: [{ type: "text", text: "Como o assistente encontra as respostas?" }],
          },
        }),
      });
      assert.equal(res.status, 200);
      const cookie = res.headers.get("set-cookie")!.split(";")[0];
      const read = parseSseText(await res.text());
      assert.ok(read.done, "the stream ends with [DONE]");
      assert.ok(streamedText(read.chunks).length > 20, "the offline model answered with text");
      assert.ok(read.chunks.some((c) => c.type === "finish"));

      // The turn was saved in KV (in memory: nothing written to disk).
      const saved = await fetch(`${base}/api/chats/${chatId}`, { headers: { cookie } });
      assert.equal(saved.status, 200);
      const body = JSON.stringify(await saved.json());
      assert.match(body, /Como o assistente encontra as respostas\?/);

      // ADMIN_TOKEN opens the admin API.
      const usage = await fetch(`${base}/api/usage`, {
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` },
      });
      assert.equal(usage.status, 200);
      await usage.body?.cancel();
      assert.doesNotMatch(proc.stderr(), /NotCapable|PermissionDenied|Requires .* access/);
    } finally {
      await proc.stop();
    }
  },
});

Deno.test({
  name: "production entry: SIGTERM lets the answer in flight finish, then exits 0",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const proc = spawnProductionEntry(productionEnv());
    try {
      const base = `http://127.0.0.1:${await proc.port}`;
      const res = await fetch(`${base}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: "term" + crypto.randomUUID().replaceAll("-", "").slice(0, 16),
          message: {
            id: "u1",
            role: "user",
            parts: [{ type: "text", text: "Como o assistente encontra as respostas?" }],
          },
        }),
      });
      assert.equal(res.status, 200);
      // The stream has begun: a stop now must not cut it.
      proc.child.kill("SIGTERM");
      const read = parseSseText(await res.text());
      assert.ok(read.done, "the stream still ends with [DONE]");
      assert.ok(streamedText(read.chunks).length > 20);
      const status = await proc.child.status;
      assert.equal(status.code, 0, proc.stderr());
      assert.equal(status.signal, null);
    } finally {
      await proc.stop();
    }
  },
});

Deno.test("production entry: a weak production config is refused with the reasons, no server", async () => {
  const { code, stderr } = await exitOf(spawnProductionEntry({
    DENO_DEPLOYMENT_ID: "test-deployment",
    SESSION_SECRET: "s".repeat(40),
    DENO_KV_PATH: ":memory:",
  }));
  assert.equal(code, 1);
  assert.match(stderr, /Refusing to start in production \(DENO_DEPLOYMENT_ID is set/);
  assert.match(stderr, /SESSION_SECRET looks guessable/);
  assert.match(stderr, /ADMIN_TOKEN is not set/);
  assert.doesNotMatch(stderr, /Listening/);
});

Deno.test("production entry: APP_ENV=production with a short ADMIN_TOKEN is refused", async () => {
  const { code, stderr } = await exitOf(
    spawnProductionEntry(productionEnv({ ADMIN_TOKEN: "admin123" })),
  );
  assert.equal(code, 1);
  assert.match(stderr, /APP_ENV=production/);
  assert.match(stderr, /ADMIN_TOKEN has 8 characters; it needs at least 32/);
  assert.doesNotMatch(stderr, /SESSION_SECRET/);
});

Deno.test("production entry: read-only without DENO_KV_PATH says to use :memory: or a KV Connect URL", async () => {
  const env = productionEnv();
  delete env.DENO_KV_PATH;
  const { code, stderr } = await exitOf(spawnProductionEntry(env));
  assert.notEqual(code, 0);
  assert.match(stderr, /Cannot write the KV file ".*\.data\/kv\.sqlite"/);
  assert.match(stderr, /DENO_KV_PATH to ":memory:"/);
});

Deno.test({
  name: "production entry: a KV Connect URL in DENO_KV_PATH is opened with DENO_KV_ACCESS_TOKEN",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // Not a denokv server (none can be installed here): a loopback receiver that records
    // the KV Connect metadata exchange Deno starts when the app opens the URL, and refuses
    // it (some Deno versions then retry rather than exit, so the child is stopped here).
    let contacted: (r: { path: string; authorization: string | null; body: string }) => void;
    const first = new Promise<Parameters<typeof contacted>[0]>((resolve) => contacted = resolve);
    const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      contacted({
        path: new URL(req.url).pathname,
        authorization: req.headers.get("authorization"),
        body: await req.text(),
      });
      return new Response("unknown token", { status: 401 });
    });
    const url = `http://127.0.0.1:${receiver.addr.port}/kv/connect`;
    const token = "kv-token-" + crypto.randomUUID();
    const proc = spawnProductionEntry(
      productionEnv({ DENO_KV_PATH: url, DENO_KV_ACCESS_TOKEN: token }),
    );
    try {
      const exited = proc.child.status.then((s) => {
        throw new Error(`main.ts exited (${s.code}) without contacting KV: ${proc.stderr()}`);
      });
      exited.catch(() => {});
      const seen = await Promise.race([first, exited]);
      assert.equal(seen.path, "/kv/connect");
      assert.equal(seen.authorization, `Bearer ${token}`);
      assert.ok(Array.isArray(JSON.parse(seen.body).supportedVersions));
    } finally {
      await proc.stop();
      await receiver.shutdown();
    }
  },
});

Deno.test("production entry: a KV Connect URL without a token, or over http to a remote host, is refused", async () => {
  const missing = await exitOf(
    spawnProductionEntry(productionEnv({ DENO_KV_PATH: "https://kv.example.invalid/db" })),
  );
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /DENO_KV_ACCESS_TOKEN is not set/);

  const clear = await exitOf(spawnProductionEntry(productionEnv({
    DENO_KV_PATH: "http://kv.example.invalid/db",
    DENO_KV_ACCESS_TOKEN: "t",
  })));
  assert.notEqual(clear.code, 0);
  assert.match(clear.stderr, /uses http to a remote host/);
});
