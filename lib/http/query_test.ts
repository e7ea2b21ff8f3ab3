import assert from "node:assert/strict";
import { cursorParam, intParam } from "./query.ts";
import { HttpError } from "./errors.ts";

const u = (q: string) => new URL(`http://x/api/chats?${q}`);
const bad = (fn: () => unknown) =>
  assert.throws(fn, (e) => e instanceof HttpError && e.code === "invalid_request");

Deno.test("intParam: absent or empty is the fallback; anything but an integer in range is 400", () => {
  const opts = { min: 1, max: 100, fallback: 20 };
  assert.equal(intParam(u(""), "limit", opts), 20);
  assert.equal(intParam(u("limit="), "limit", opts), 20);
  assert.equal(intParam(u("limit=7"), "limit", opts), 7);
  for (const v of ["0", "101", "-1", "1.5", "abc", "1e2", " 5", "0x10", "9999999999999"]) {
    bad(() => intParam(u(`limit=${encodeURIComponent(v)}`), "limit", opts));
  }
});

Deno.test("cursorParam: base64url, padded or not; anything else is 400", () => {
  assert.equal(cursorParam(u("")), undefined);
  assert.equal(cursorParam(u("cursor=IcAIAAAAAAAAAmMzAA%3D%3D")), "IcAIAAAAAAAAAmMzAA==");
  for (const v of ["%%%", "//8=", "a b", "x".repeat(3000), "AA=A"]) {
    bad(() => cursorParam(u(`cursor=${encodeURIComponent(v)}`)));
  }
});
