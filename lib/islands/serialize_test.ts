import assert from "node:assert/strict";
import { computed, signal } from "@preact/signals-core";
import { parse, SerializeError, stringify } from "./serialize.ts";

const revive = { signal: (v: unknown) => signal(v) };

Deno.test("serialize: primitives and special numbers round trip", () => {
  const value = {
    a: 1,
    b: "x",
    c: true,
    d: null,
    e: undefined,
    f: NaN,
    g: Infinity,
    h: -Infinity,
    i: -0,
    j: 10n,
  };
  const back = parse(stringify(value)) as typeof value;
  assert.deepEqual(Object.keys(back), Object.keys(value));
  assert.equal(back.e, undefined);
  assert.ok(Number.isNaN(back.f));
  assert.equal(back.g, Infinity);
  assert.equal(back.h, -Infinity);
  assert.ok(Object.is(back.i, -0));
  assert.equal(back.j, 10n);
  assert.equal(parse(stringify(undefined)), undefined);
  assert.equal(parse(stringify("root string")), "root string");
});

Deno.test("serialize: Date, URL, Map, Set", () => {
  const d = new Date("2026-01-02T03:04:05.678Z");
  const back = parse(
    stringify({ d, u: new URL("https://x.test/a?b"), m: new Map([["k", 1]]), s: new Set([1, 2]) }),
  ) as {
    d: Date;
    u: URL;
    m: Map<string, number>;
    s: Set<number>;
  };
  assert.equal(back.d.toISOString(), d.toISOString());
  assert.equal(back.u.href, "https://x.test/a?b");
  assert.equal(back.m.get("k"), 1);
  assert.deepEqual([...back.s], [1, 2]);
});

Deno.test("serialize: signals become signals again, with their value", () => {
  const s = signal({ count: 3 });
  const c = computed(() => s.value.count * 2);
  const back = parse(stringify({ s, c }), revive) as {
    s: { value: { count: number } };
    c: { value: number };
  };
  assert.equal(back.s.value.count, 3);
  assert.equal(back.c.value, 6);
  back.s.value = { count: 4 };
  assert.equal(back.s.value.count, 4);
});

Deno.test("serialize: shared references and cycles survive", () => {
  const shared = { name: "shared" };
  const root: Record<string, unknown> = { a: shared, b: shared, list: [shared] };
  root.self = root;
  const back = parse(stringify(root)) as Record<string, unknown> & { list: unknown[] };
  assert.equal(back.a, back.b);
  assert.equal(back.list[0], back.a);
  assert.equal(back.self, back);
});

Deno.test("serialize: output is safe inside a script element", () => {
  const text = stringify({
    x: "</script><script>alert(1)</script>",
    y: "<!-- c -->",
    z: "\u2028\u2029",
  });
  assert.ok(!text.includes("<"), text);
  assert.ok(!text.includes("\u2028"));
  assert.deepEqual(parse(text), {
    x: "</script><script>alert(1)</script>",
    y: "<!-- c -->",
    z: "\u2028\u2029",
  });
});

Deno.test("serialize: a function prop fails naming where it is", () => {
  assert.throws(
    () => stringify([{ onSend: () => {} }], (p) => `island "Chat", prop "${p}"`),
    (e: unknown) =>
      e instanceof SerializeError && /island "Chat", prop "\[0\]\.onSend"/.test(e.message),
  );
  class Custom {}
  assert.throws(() => stringify({ c: new Custom() }), /instance of "Custom"/);
});

Deno.test("serialize: arrays of strings are not mistaken for tags", () => {
  const value = { tags: ["D", "S", "U"], nested: [["D", "x"]], empty: [] };
  assert.deepEqual(parse(stringify(value)), value);
});
