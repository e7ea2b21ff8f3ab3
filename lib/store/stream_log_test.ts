import assert from "node:assert/strict";
import fc from "fast-check";
import type { UIMessageChunk } from "ai";
import { createStreamLog } from "./stream_log.ts";
import { INTERRUPTED_CHUNK, isInterruptedChunk } from "./stream_follow.ts";
import { countingKv, readCalls } from "@/tests/support/counting_kv.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Rejects when `promise` takes longer than `ms`: a bound on "does not hang". */
async function within<T>(ms: number, label: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`"${label}" took longer than ${ms} ms.`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function collect(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

function delta(text: string): UIMessageChunk {
  return { type: "text-delta", id: "t1", delta: text };
}

/** A two-isolate setup: two KV handles on one temp file. */
async function withTwoHandles(fn: (a: Deno.Kv, b: Deno.Kv) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite`;
  const a = await Deno.openKv(path);
  const b = await Deno.openKv(path);
  try {
    await fn(a, b);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const chunkArb: fc.Arbitrary<UIMessageChunk> = fc.oneof(
  { weight: 10, arbitrary: fc.string({ maxLength: 8, unit: "binary" }).map(delta) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 3, unit: "binary" }), fc.nat(90_000))
      .map(([s, n]) => delta(s.repeat(Math.ceil(n / s.length) + 1))),
  },
  { weight: 1, arbitrary: fc.constant<UIMessageChunk>({ type: "text-start", id: "t1" }) },
  { weight: 1, arbitrary: fc.constant<UIMessageChunk>({ type: "finish" }) },
);

Deno.test("stream log: every reader gets exactly the producer's chunks from its index", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        chunks: fc.array(chunkArb, { maxLength: 40 }),
        delays: fc.array(fc.constantFrom(0, 0, 0, 1, 4, 12), { minLength: 40, maxLength: 40 }),
        flushMs: fc.integer({ min: 1, max: 30 }),
        flushBytes: fc.integer({ min: 16, max: 70_000 }),
        readers: fc.array(fc.record({ startAt: fc.nat(42), fromIndex: fc.nat(42) }), {
          minLength: 1,
          maxLength: 4,
        }),
      }),
      async ({ chunks, delays, flushMs, flushBytes, readers }) => {
        const kv = await Deno.openKv(":memory:");
        try {
          const log = createStreamLog(kv, { flushMs, flushBytes, pollMs: 20 });
          const writer = log.open("chat-1", "s1", "v1");
          const reads: Promise<void>[] = [];
          const startReaders = (at: number) => {
            for (const r of readers.filter((r) => Math.min(r.startAt, chunks.length) === at)) {
              const want = chunks.slice(r.fromIndex);
              const stream = log.follow("s1", { fromIndex: r.fromIndex, staleAfterMs: 5_000 });
              const read = collect(stream).then((got) => assert.deepEqual(got, want));
              read.catch(() => {}); // reported by the Promise.all below
              reads.push(read);
            }
          };
          for (const [i, chunk] of chunks.entries()) {
            startReaders(i);
            writer.append(chunk);
            if (delays[i]) await sleep(delays[i]);
          }
          await writer.end("finished");
          startReaders(chunks.length);
          await within(10_000, "readers", Promise.all(reads));
        } finally {
          kv.close();
        }
      },
    ),
    { numRuns: 30 },
  );
});

Deno.test("stream log: append writes nothing before returning; a > 64 KiB chunk round-trips", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = createStreamLog(kv);
    const writer = log.open("chat-1", "s1", "v1");
    const big = delta("é".repeat(100_000));
    writer.append(delta("a"));
    writer.append(big);
    assert.equal(writer.stats().commits, 0);
    await writer.end("finished");
    assert.deepEqual(await collect(log.follow("s1")), [delta("a"), big]);
    assert.ok(writer.stats().batches >= 1);
  } finally {
    kv.close();
  }
});

Deno.test("stream log: a writer on one handle, a follower on another (two isolates)", () =>
  withTwoHandles(async (a, b) => {
    const writerLog = createStreamLog(a, { flushMs: 5 });
    const readerLog = createStreamLog(b);
    const writer = writerLog.open("chat-1", "s1", "v1");
    const chunks = Array.from({ length: 60 }, (_, i) => delta(`w${i} `));
    const reads: Promise<UIMessageChunk[]>[] = [];
    for (const [i, chunk] of chunks.entries()) {
      if (i === 10) reads.push(collect(readerLog.follow("s1")));
      if (i === 30) reads.push(collect(readerLog.follow("s1", { fromIndex: 25 })));
      writer.append(chunk);
      await sleep(2);
    }
    const active = await readerLog.active("chat-1");
    assert.equal(active?.streamId, "s1");
    assert.equal(active?.visitorId, "v1");
    await writer.end("finished");
    const [all, tail] = await within(5_000, "followers", Promise.all(reads));
    assert.deepEqual(all, chunks);
    assert.deepEqual(tail, chunks.slice(25));
    assert.equal(await readerLog.active("chat-1"), null);
  }));

Deno.test("stream log: a stop requested from another handle reaches the writer within 250 ms", () =>
  withTwoHandles(async (a, b) => {
    const writer = createStreamLog(a).open("chat-1", "s1", "v1");
    writer.append(delta("hello"));
    await writer.heartbeat();
    assert.equal(writer.stopped(), false);
    const seen = new Promise<number>((resolve) => writer.onStop(() => resolve(performance.now())));
    const asked = performance.now();
    await createStreamLog(b).requestStop("s1");
    const at = await within(2_000, "onStop", seen);
    assert.ok(at - asked < 250, `The stop took ${Math.round(at - asked)} ms to arrive.`);
    assert.equal(writer.stopped(), true);
    let late = false;
    writer.onStop(() => late = true);
    await sleep(0);
    assert.equal(late, true, "onStop after the stop fires at once");
    await writer.end("stopped");
  }));

Deno.test("stream log: across processes (no shared watch), polling follows and stops", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite`;
  const kv = await Deno.openKv(path);
  try {
    const script = new URL("./testdata/stream_log_producer.ts", import.meta.url).pathname;
    const args = ["run", "-A", "--unstable-kv", script, path];
    const child = new Deno.Command(Deno.execPath(), { args, stdout: "piped" }).spawn();
    const log = createStreamLog(kv);
    await within(
      10_000,
      "pointer",
      (async () => {
        while (!await log.active("chat-1")) await sleep(20);
      })(),
    );
    let last = performance.now();
    let gap = 0;
    const got: UIMessageChunk[] = [];
    const reading = (async () => {
      for await (const chunk of log.follow("s1")) {
        gap = Math.max(gap, performance.now() - last);
        last = performance.now();
        got.push(chunk);
      }
    })();
    await sleep(500);
    const askedAt = Date.now();
    await log.requestStop("s1");
    await within(5_000, "follow", reading);
    const { stopSeenAt } = JSON.parse(new TextDecoder().decode((await child.output()).stdout));
    const expected = got.map((_, i) => delta(`d${i} `));
    assert.deepEqual(got, expected);
    assert.ok(got.length > 0 && got.length < 300);
    assert.ok(stopSeenAt - askedAt < 1_000, `The stop took ${stopSeenAt - askedAt} ms to arrive.`);
    console.log(`  stop seen after ${stopSeenAt - askedAt} ms; longest gap ${Math.round(gap)} ms`);
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stream log: a dead producer ends the follower with the interrupted marker", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite`;
  const producerKv = await Deno.openKv(path);
  const readerKv = await Deno.openKv(path);
  try {
    const writer = createStreamLog(producerKv, { flushMs: 1 }).open("chat-1", "s1", "v1");
    writer.append(delta("partial"));
    await writer.heartbeat(); // flushed; then the isolate dies: no end, no heartbeat
    producerKv.close();
    const staleAfterMs = 300;
    const log = createStreamLog(readerKv);
    const started = performance.now();
    const got = await within(3_000, "follow", collect(log.follow("s1", { staleAfterMs })));
    assert.deepEqual(got, [delta("partial"), INTERRUPTED_CHUNK]);
    assert.ok(isInterruptedChunk(got[1]));
    assert.ok(performance.now() - started >= staleAfterMs - 50);
    // Nothing at all under that id: interrupted too, after the same bound.
    const none = await within(3_000, "unknown", collect(log.follow("nope", { staleAfterMs })));
    assert.deepEqual(none, [INTERRUPTED_CHUNK]);
  } finally {
    readerKv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("stream log: an older stream's end never clears a newer stream's pointer", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let now = 1_000;
    const log = createStreamLog(kv, { clock: () => now });
    const older = log.open("chat-1", "s1", "v1");
    await older.heartbeat();
    now = 2_000;
    const newer = log.open("chat-1", "s2", "v1");
    await newer.heartbeat();
    now = 3_000;
    await older.heartbeat(); // must not take the pointer back
    await older.end("stopped");
    const active = await log.active("chat-1");
    assert.equal(active?.streamId, "s2");
    assert.equal(active?.startedAt, 2_000);
    await newer.end("finished");
    assert.equal(await log.active("chat-1"), null);
  } finally {
    kv.close();
  }
});

Deno.test("stream log: an older stream ending right after a newer one opened leaves the newer pointer", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = createStreamLog(kv);
    const older = log.open("chat-1", "s1", "v1");
    older.append(delta("a"));
    await older.heartbeat();
    const newer = log.open("chat-1", "s2", "v1");
    await newer.heartbeat();
    // The older writer's own pointer write is no longer there: its end must not clear s2.
    await older.end("finished");
    assert.equal((await log.active("chat-1"))?.streamId, "s2");
    assert.deepEqual(await collect(log.follow("s1")), [delta("a")]);
    await newer.end("finished");
    assert.equal(await log.active("chat-1"), null);
  } finally {
    kv.close();
  }
});

Deno.test("stream log: a short answer costs two commits and no read: the open, then its chunks with the end", async () => {
  const base = await Deno.openKv(":memory:");
  const counting = countingKv(base);
  try {
    const log = createStreamLog(counting.kv, { pollMs: null });
    const writer = log.open("chat-1", "s1", "v1");
    writer.append({ type: "start" });
    writer.append(delta("Hello"));
    await writer.end("finished");
    assert.equal(readCalls(counting.counts), 0);
    assert.equal(writer.stats().commits, 2);
    assert.equal(writer.stats().batches, 1);
    assert.equal(await log.active("chat-1"), null);
    assert.deepEqual(await collect(log.follow("s1")), [{ type: "start" }, delta("Hello")]);
  } finally {
    base.close();
  }
});

Deno.test("stream log: a batch is one KV write; a follower gets each batch as it lands, before the end", async () => {
  for (const pollMs of [null, 20]) {
    const kv = await Deno.openKv(":memory:");
    try {
      const log = createStreamLog(kv, { flushMs: 5, pollMs });
      const writer = log.open("chat-1", "s1", "v1");
      await writer.heartbeat();
      const reader = log.follow("s1").getReader();
      const opened = writer.stats().mutations;
      for (const text of ["a", "b", "c"]) {
        writer.append(delta(text));
        const { value } = await within(2_000, `batch ${text}`, reader.read());
        assert.deepEqual(value, delta(text), `pollMs ${pollMs}`);
      }
      assert.equal(writer.stats().batches, 3);
      assert.equal(writer.stats().mutations - opened, 3);
      await writer.end("finished");
      assert.equal((await within(2_000, "end", reader.read())).done, true);
    } finally {
      kv.close();
    }
  }
});

Deno.test("stream log: nobody following, a writer holds its chunks for the quiet interval", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = createStreamLog(kv, { flushMs: 5, quietFlushMs: 60_000, pollMs: null });
    const writer = log.open("chat-1", "s1", "v1");
    const chunks = Array.from({ length: 50 }, (_, i) => delta(`q${i} `));
    for (const chunk of chunks) {
      writer.append(chunk);
      await sleep(2);
    }
    assert.equal(writer.stats().batches, 0, "no batch at the live pace");
    await writer.end("finished");
    assert.equal(writer.stats().batches, 1, "the held chunks go out with the end");
    assert.deepEqual(await collect(log.follow("s1")), chunks);
  } finally {
    kv.close();
  }
});

Deno.test("stream log: a follower on another handle gets the held chunks at once, then the rest live", async () => {
  // kv.watch across two handles of one file, and the poller that backs it there.
  for (const pollMs of [null, 20]) {
    await withTwoHandles(async (a, b) => {
      const writer = createStreamLog(a, { flushMs: 5, quietFlushMs: 60_000, pollMs })
        .open("chat-1", "s1", "v1");
      writer.append(delta("held "));
      writer.append(delta("before "));
      const reader = createStreamLog(b, { pollMs }).follow("s1").getReader();
      for (const text of ["held ", "before "]) {
        const { value } = await within(2_000, `held ${text}(pollMs ${pollMs})`, reader.read());
        assert.deepEqual(value, delta(text));
      }
      for (const text of ["live ", "after"]) {
        writer.append(delta(text));
        const { value } = await within(2_000, `live ${text}(pollMs ${pollMs})`, reader.read());
        assert.deepEqual(value, delta(text));
      }
      await writer.end("finished");
      assert.equal((await within(2_000, "end", reader.read())).done, true);
    });
  }
});

Deno.test("stream log: a follower stops when its signal aborts", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = createStreamLog(kv);
    const writer = log.open("chat-1", "s1", "v1");
    writer.append(delta("a"));
    const controller = new AbortController();
    const reading = collect(log.follow("s1", { signal: controller.signal }));
    await sleep(100);
    controller.abort();
    assert.deepEqual(await within(2_000, "abort", reading), [delta("a")]);
    await writer.end("finished");
  } finally {
    kv.close();
  }
});

/**
 * Streams `count` text deltas of 4 chars, sleeping `sleepMs` after every `every` chunks;
 * `followed`: with a follower from the start.
 */
async function measure(count: number, every: number, sleepMs: number, followed = false) {
  const kv = await Deno.openKv(":memory:");
  try {
    const log = createStreamLog(kv);
    const writer = log.open("chat-1", "s1", "v1");
    const following = followed ? collect(log.follow("s1")) : null;
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      writer.append(delta(String(i % 10_000).padStart(4, "x")));
      if (sleepMs && i % every === every - 1) await sleep(sleepMs);
    }
    await writer.end("finished");
    const rate = Math.round(count / ((performance.now() - started) / 1000));
    const scale = (n: number) => Math.round(n * 1_000 / count);
    const s = writer.stats();
    if (following) assert.equal((await following).length, count);
    return `${followed ? "followed, " : ""}${rate} chunks/s → per 1,000 chunks: ${
      scale(s.commits)
    } commits, ` +
      `${scale(s.mutations)} keys written, ${scale(s.bytes)} bytes (${scale(s.batches)} batches)`;
  } finally {
    kv.close();
  }
}

Deno.test("stream log: figure — KV writes and bytes per 1,000 text deltas of 4 chars", async () => {
  const payload = JSON.stringify(delta("xxx1")).length * 1_000;
  const figures = await Promise.all([
    measure(200, 1, 10),
    measure(200, 1, 10, true),
    measure(1_000, 4, 1),
    measure(1_000, 1, 0),
  ]);
  console.log(`  raw chunk JSON: ${payload} bytes per 1,000 chunks`);
  for (const line of figures) console.log(`  ${line}`);
});

Deno.test("stream log: where kv.watch sees every writer nothing polls; a stop and a follower still arrive", async () => {
  const kv = await Deno.openKv(":memory:");
  let polls = 0;
  // Counts the poller's reads: it is the only caller of getMany here.
  const counted = new Proxy(kv, {
    get(target, name) {
      if (name === "getMany") {
        return (...args: Parameters<Deno.Kv["getMany"]>) => (polls++, target.getMany(...args));
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  try {
    const log = createStreamLog(counted, { pollMs: null, flushMs: 5 });
    const writer = log.open("chat-1", "s1", "v1");
    const following = collect(log.follow("s1"));
    const chunks = Array.from({ length: 20 }, (_, i) => delta(`n${i} `));
    for (const chunk of chunks) {
      writer.append(chunk);
      await sleep(2);
    }
    const seen = new Promise<number>((resolve) => writer.onStop(() => resolve(performance.now())));
    const asked = performance.now();
    await log.requestStop("s1");
    const at = await within(2_000, "onStop", seen);
    assert.ok(at - asked < 250, `The stop took ${Math.round(at - asked)} ms to arrive.`);
    await writer.end("stopped");
    assert.deepEqual(await within(2_000, "follower", following), chunks);
    await sleep(250);
    assert.equal(polls, 0, "no poll read");
  } finally {
    kv.close();
  }
});

Deno.test("stream log: a follower's touch is seen by the producer's handle", () =>
  withTwoHandles(async (a, b) => {
    let now = 1_000;
    const producer = createStreamLog(a, { clock: () => now });
    const follower = createStreamLog(b, { clock: () => now });
    assert.equal(await producer.lastListenedAt("s_listen"), null);
    await follower.touchListener("s_listen");
    assert.equal(await producer.lastListenedAt("s_listen"), 1_000);
    now = 2_500;
    await follower.touchListener("s_listen");
    assert.equal(await producer.lastListenedAt("s_listen"), 2_500);
  }));

Deno.test("stream log: writers flushing on the same tick share KV commits; every reader gets its own chunks", async () => {
  const kv = await Deno.openKv(":memory:");
  let commits = 0;
  const atomic = kv.atomic.bind(kv);
  kv.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    op.commit = () => (commits++, commit());
    return op;
  };
  const log = createStreamLog(kv, { flushMs: 20 });
  const writers = Array.from({ length: 30 }, (_, i) => log.open(`chat${i}`, `s${i}`, "v"));
  // Followed writers flush at the live pace, on one clock.
  await Promise.all(writers.map((w) => log.touchListener(w.streamId)));
  await new Promise((r) => setTimeout(r, 30)); // the writers' open records
  const before = commits;
  for (let round = 0; round < 3; round++) {
    writers.forEach((w, i) => w.append(delta(`${i}.${round}`)));
    await new Promise((r) => setTimeout(r, 7));
  }
  await new Promise((r) => setTimeout(r, 40));
  const batches = writers.reduce((n, w) => n + w.stats().batches, 0);
  assert.ok(batches >= 30, `${batches} batches`);
  assert.ok(commits - before <= 4, `${commits - before} commits for ${batches} batches`);
  await Promise.all(writers.map((w) => w.end("finished")));
  const got = await collect(log.follow("s7"));
  assert.deepEqual(got.map((c) => c.type === "text-delta" && c.delta), ["7.0", "7.1", "7.2"]);
  kv.close();
});
