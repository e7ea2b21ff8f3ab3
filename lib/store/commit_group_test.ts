import assert from "node:assert/strict";
import { createCommitGroup } from "./commit_group.ts";

/** Counts the atomic commits made on `kv`. */
function countCommits(kv: Deno.Kv) {
  const counts = { commits: 0 };
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = () => (counts.commits++, commit());
    return op;
  };
  return counts;
}

Deno.test("commit group: fifty writers' sets submitted together land in one commit", async () => {
  const kv = await Deno.openKv(":memory:");
  const counts = countCommits(kv);
  const group = createCommitGroup(kv);
  await Promise.all(Array.from({ length: 50 }, (_, i) =>
    group.set([
      { key: ["v", i], value: `batch ${i}`, bytes: 8 },
      { key: ["head", i], value: { seq: i }, bytes: 9 },
    ], 60_000)));
  assert.equal(counts.commits, 1);
  const values = await kv.getMany([["v", 7], ["head", 49]]);
  assert.deepEqual(values.map((e) => e.value), ["batch 7", { seq: 49 }]);
  kv.close();
});

Deno.test("commit group: sets over KV's commit size go out in several commits", async () => {
  const kv = await Deno.openKv(":memory:");
  const counts = countCommits(kv);
  const group = createCommitGroup(kv);
  const big = new Uint8Array(60 * 1024);
  // 3 writers × 6 values of 60 KiB = 1080 KiB: more than one commit (800 KiB) holds.
  await Promise.all(Array.from({ length: 3 }, (_, w) =>
    group.set(
      Array.from({ length: 6 }, (_, i) => ({ key: ["b", w, i], value: big, bytes: big.length })),
      60_000,
    )));
  assert.equal(counts.commits, 2);
  const all = await Array.fromAsync(kv.list({ prefix: ["b"] }));
  assert.equal(all.length, 18);
  kv.close();
});

Deno.test("commit group: a writer whose set fails fails alone", async () => {
  const kv = await Deno.openKv(":memory:");
  const group = createCommitGroup(kv);
  const tooBig = new Uint8Array(70 * 1024); // over KV's 64 KiB value limit
  const results = await Promise.allSettled([
    group.set([{ key: ["a"], value: 1, bytes: 1 }], 60_000),
    group.set([{ key: ["b"], value: tooBig, bytes: tooBig.length }], 60_000),
  ]);
  assert.deepEqual(results.map((r) => r.status), ["fulfilled", "rejected"]);
  assert.equal((await kv.get(["a"])).value, 1);
  kv.close();
});
