/**
 * A path the file system refuses (a segment longer than NAME_MAX, a name the
 * OS cannot hold) is a missing file: 404, never a 500, on the real app.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";

Deno.test("a static path with a 256-byte segment or another unreadable name answers 404", async () => {
  const server = await startTestServer();
  try {
    const paths = [
      `/${"a".repeat(256)}.css`,
      `/_islands/${"b".repeat(300)}.js`,
      `/${"c".repeat(255)}/${"d".repeat(4000)}`,
      `/${"%C3%A9".repeat(200)}.png`, // 200 "é": 400 bytes, over NAME_MAX though 200 characters
      "/styles.css/x.css", // a file used as a folder (ENOTDIR)
    ];
    for (const path of paths) {
      const res = await fetch(server.url + path);
      await res.body?.cancel();
      assert.equal(res.status, 404, `${path.slice(0, 40)}… answered ${res.status}`);
    }
    const ok = await fetch(`${server.url}/styles.css`);
    await ok.body?.cancel();
    assert.equal(ok.status, 200, "a real file still serves");
  } finally {
    await server.close();
  }
});
