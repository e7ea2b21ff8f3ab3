/**
 * The rate limit holds across two server processes sharing one KV file, as it
 * must across Deno Deploy isolates sharing the managed KV.
 */
import assert from "node:assert/strict";
import { spawnAppProcess } from "../support/app_process.ts";

function spawnServer(kvPath: string) {
  return spawnAppProcess(kvPath, { LIMIT_VISITOR_RPM: "4" }, { stderr: "inherit" });
}

Deno.test({
  name: "limits: two server processes sharing one KV file enforce one visitor limit",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const kvPath = `${dir}/kv.sqlite`;
    const a = await spawnServer(kvPath);
    const b = await spawnServer(kvPath);
    try {
      // The limit is per clock minute: don't start right before one ends.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 55_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
      // One visitor (one cookie), requests alternating between the two processes.
      const first = await fetch(`${a.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: "limits-0001",
          message: { id: "u0", role: "user", parts: [{ type: "text", text: "Oi" }] },
        }),
      });
      assert.equal(first.status, 200);
      const cookie = first.headers.get("set-cookie")!.split(";")[0];
      await first.body?.cancel();
      const statuses: number[] = [first.status];
      let retryAfter: string | null = null;
      for (let i = 1; i < 8; i++) {
        const server = i % 2 ? b : a;
        const res = await fetch(`${server.url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({
            id: `limits-000${i + 1}`,
            message: { id: `u${i}`, role: "user", parts: [{ type: "text", text: "Oi" }] },
          }),
        });
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers.get("retry-after");
          assert.equal((await res.json()).error.code, "rate_limited");
        } else await res.body?.cancel();
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429, 429, 429]);
      assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After ${retryAfter}`);
    } finally {
      for (const s of [a, b]) {
        s.child.kill();
        await s.child.status;
      }
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
