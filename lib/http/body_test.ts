import assert from "node:assert/strict";
import { MAX_FORM_BYTES, readFormBody, readJsonBody } from "./body.ts";
import { HttpError } from "./errors.ts";

/** A request whose body streams `total` bytes in chunks, without Content-Length. */
function streamed(total: number, type: string): { req: Request; sent: () => number } {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(1024, total - sent);
      sent += n;
      controller.enqueue(new TextEncoder().encode("a".repeat(n)));
    },
  });
  const req = new Request("http://x/", { method: "POST", body, headers: { "content-type": type } });
  return { req, sent: () => sent };
}

const code = (c: string) => (e: unknown) => e instanceof HttpError && e.code === c;

Deno.test("readFormBody: urlencoded and multipart forms", async () => {
  const urlencoded = new Request("http://x/", {
    method: "POST",
    body: new URLSearchParams({ title: "Olá" }),
  });
  assert.equal((await readFormBody(urlencoded)).get("title"), "Olá");
  const fd = new FormData();
  fd.set("title", "Multi");
  const multipart = new Request("http://x/", { method: "POST", body: fd });
  assert.equal((await readFormBody(multipart)).get("title"), "Multi");
  const empty = new Request("http://x/", { method: "POST" });
  assert.equal([...(await readFormBody(empty)).keys()].length, 0);
});

Deno.test("readFormBody: a streamed body past the cap is 413 without reading it all", async () => {
  const { req, sent } = streamed(10 * 1024 * 1024, "application/x-www-form-urlencoded");
  await assert.rejects(() => readFormBody(req), code("payload_too_large"));
  assert.ok(sent() <= MAX_FORM_BYTES + 2048, `read ${sent()} bytes`);
});

Deno.test("readFormBody: another type or a broken multipart body is 400", async () => {
  const json = new Request("http://x/", {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  });
  await assert.rejects(() => readFormBody(json), code("invalid_request"));
  const broken = new Request("http://x/", {
    method: "POST",
    body: "--x\r\nnot a part",
    headers: { "content-type": "multipart/form-data" }, // no boundary
  });
  await assert.rejects(() => readFormBody(broken), code("invalid_request"));
});

Deno.test("readJsonBody: still 413 past the limit while streaming", async () => {
  const { req } = streamed(100_000, "application/json");
  await assert.rejects(() => readJsonBody(req, 4096), code("payload_too_large"));
});
