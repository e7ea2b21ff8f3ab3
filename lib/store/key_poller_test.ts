import assert from "node:assert/strict";
import { createKeyPoller } from "./key_poller.ts";
import { tempKvPath } from "@/tests/support/temp.ts";

/** A KV that counts its reads. */
function countingKv(kv: Deno.Kv) {
  const counts = { getMany: 0, keys: 0 };
  const getMany = kv.getMany.bind(kv);
  kv.getMany = ((keys: Deno.KvKey[]) => {
    counts.getMany++;
    counts.keys += keys.length;
    return getMany(keys);
  }) as Deno.Kv["getMany"];
  return counts;
}

Deno.test("key poller: 25 keys are read in groups of ten, each value to its own listener", async () => {
  const kv = await Deno.openKv(":memory:");
  const counts = countingKv(kv);
  for (let i = 0; i < 25; i++) await kv.set(["k", i], i);
  const poller = createKeyPoller(kv, 20);
  const seen = new Map<number, unknown[]>();
  const stops = Array.from(
    { length: 25 },
    (_, i) => poller.watch<number>(["k", i], (v) => seen.set(i, [...(seen.get(i) ?? []), v])),
  );
  await new Promise((r) => setTimeout(r, 70));
  await Promise.all(stops.map((stop) => stop()));
  for (let i = 0; i < 25; i++) {
    assert.ok(seen.get(i)!.length >= 2, `key ${i} was read ${seen.get(i)?.length ?? 0} times`);
    assert.ok(seen.get(i)!.every((v) => v === i));
  }
  // Every read of 25 keys is three getMany calls, never one call per key.
  assert.equal(counts.keys % 25, 0);
  assert.equal(counts.getMany, (counts.keys / 25) * 3);
  kv.close();
});

Deno.test("key poller: a write by another handle is seen; nothing is called after unwatch", async () => {
  const path = tempKvPath();
  const kv = await Deno.openKv(path), other = await Deno.openKv(path);
  const poller = createKeyPoller(kv, 10);
  const values: unknown[] = [];
  const stop = poller.watch<string>(["stop"], (v) => values.push(v));
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(values.at(-1), null);
  await other.set(["stop"], "yes");
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(values.at(-1), "yes");
  await stop();
  const after = values.length;
  await other.set(["stop"], "again");
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(values.length, after);
  kv.close();
  other.close();
});
