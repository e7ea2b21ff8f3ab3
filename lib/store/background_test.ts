import assert from "node:assert/strict";
import { createBackgroundWrites } from "./background.ts";

const later = (ms: number, value?: unknown, fail = false) =>
  new Promise((resolve, reject) =>
    setTimeout(() => fail ? reject(new Error("x")) : resolve(value), ms)
  );

Deno.test("background writes: settled waits for every write, failed ones too, and those added meanwhile", async () => {
  const writes = createBackgroundWrites();
  const landed: string[] = [];
  writes.add(later(20).then(() => landed.push("gap")));
  writes.add(later(5, undefined, true));
  writes.add(later(10).then(() => writes.add(later(20).then(() => landed.push("after")))));
  await writes.settled();
  assert.deepEqual(landed, ["gap", "after"]);
  await writes.settled(); // nothing pending: at once
});

Deno.test("background writes: a write that never settles is given up after the timeout", async () => {
  const writes = createBackgroundWrites();
  writes.add(new Promise(() => {}));
  const started = performance.now();
  await writes.settled(30);
  assert.ok(performance.now() - started < 1_000);
});
