/**
 * KV bench (figures for issue #5): KV reads and writes per chat turn, the
 * latency a 200-message history adds to the first token, and what the
 * rate-limit check costs.
 *
 *   deno run -A --v8-flags=--expose-gc tests/bench/kv_bench.ts
 *
 * Everything runs in this process on 127.0.0.1 with the offline model (no
 * provider configured): its turn calls `search_site` and then answers, so one
 * turn makes two model steps and no upstream HTTP call.
 */
import { percentile } from "@/lib/search/beir.ts";
import { createRateLimiter } from "@/lib/store/limits.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { encodeMessage } from "@/lib/store/message_slots.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import { newChatId, testConfig, userMessage } from "../support/chat_client.ts";
import { countingKv, type KvCounts, type PrefixCounts, readCalls } from "../support/counting_kv.ts";

const QUESTION = "How does the assistant find its answers?";
const HISTORY = 200;
const HISTORY_REPS = 150;
const LIMIT_CALLS = 2000;

const f2 = (x: number) => Number.isFinite(x) ? x.toFixed(2) : "–";
const kb = (b: number) => `${(b / 1024).toFixed(1)} KiB`;

interface Timed {
  ttft: number;
  total: number;
  ok: boolean;
}

/** POSTs one turn and reads it to the end; times the first `text-delta` and the whole stream. */
async function turn(server: TestServer, cookie: string, id: string, text = QUESTION) {
  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ id, trigger: "submit-message", message: userMessage(text) }),
  });
  if (res.status !== 200) throw new Error(`chat answered ${res.status}: ${await res.text()}`);
  const setCookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let ttft = NaN;
  let raw = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(ttft) && value.includes('"type":"text-delta"')) {
      ttft = performance.now() - t0;
    }
    raw += value;
  }
  const total = performance.now() - t0;
  const ok = raw.includes('"type":"finish"') && raw.trimEnd().endsWith("data: [DONE]");
  return { timed: { ttft, total, ok } as Timed, cookie: setCookie || cookie };
}

function sum(counts: KvCounts) {
  let get = 0, getManyCalls = 0, getManyKeys = 0, listCalls = 0, listEntries = 0;
  let checks = 0, mutations = 0, direct = 0;
  for (const c of counts.byPrefix.values()) {
    get += c.get;
    getManyCalls += c.getManyCalls;
    getManyKeys += c.getManyKeys;
    listCalls += c.listCalls;
    listEntries += c.listEntries;
    checks += c.atomicChecks;
    mutations += c.atomicMutations;
    direct += c.directWrites;
  }
  return { get, getManyCalls, getManyKeys, listCalls, listEntries, checks, mutations, direct };
}

function countsRow(label: string, counts: KvCounts): string {
  const s = sum(counts);
  const reads = readCalls(counts);
  const writes = counts.commits + s.direct;
  return `| ${label} | **${reads}** | ${s.get} | ${s.getManyCalls} (${s.getManyKeys} keys) | ${s.listCalls} (${s.listEntries} entries) | **${writes}** | ${counts.commits} (${counts.commitsFailed} lost a check) | ${s.mutations} | ${s.checks} | ${s.direct} |`;
}

function prefixRows(counts: KvCounts): string[] {
  return [...counts.byPrefix].sort(([a], [b]) => a.localeCompare(b)).map((
    [prefix, c]: [string, PrefixCounts],
  ) =>
    `| \`${prefix}\` | ${c.get} | ${c.getManyCalls} (${c.getManyKeys}) | ${c.listCalls} (${c.listEntries}) | ${c.atomicMutations} | ${c.atomicChecks} | ${c.directWrites} |`
  );
}

/** Lets writes that follow the end of the stream (if any) land before counting stops. */
const settle = () => new Promise((r) => setTimeout(r, 200));

async function countsSection(): Promise<string> {
  const base = await Deno.openKv(":memory:");
  const counting = countingKv(base);
  const server = await startTestServer({ kv: counting.kv, config: testConfig() });
  const id = newChatId();
  const rows: string[] = [];
  let followUp: KvCounts;
  try {
    // Warm-up in another chat (JIT, search index), which also gives the visitor cookie.
    const warm = await turn(server, "", newChatId());
    const cookie = warm.cookie;
    await settle();

    counting.reset();
    const first = await turn(server, cookie, id);
    await settle();
    if (!first.timed.ok) throw new Error("the first counted turn did not finish");
    rows.push(countsRow("1st turn, new chat", counting.counts));

    counting.reset();
    const second = await turn(server, cookie, id, "And what data do you keep?");
    await settle();
    if (!second.timed.ok) throw new Error("the second counted turn did not finish");
    rows.push(countsRow("2nd turn, same chat (2 messages of history)", counting.counts));
    followUp = counting.counts;

    counting.reset();
    await turn(server, cookie, id, "How do I deploy it on my site?");
    await settle();
    rows.push(countsRow("3rd turn, same chat (4 messages of history)", counting.counts));
  } finally {
    await server.close();
    base.close();
  }
  return [
    "### KV operations per chat turn",
    "",
    "One offline-model turn through POST /api/chat (`startTestServer({ kv })` with a Proxy",
    "around an in-memory Deno.Kv that counts calls), counted from the request until 200 ms",
    "after its stream ended; the visitor cookie and the app's start-up come from an earlier,",
    "uncounted turn. Reads = `get` + `getMany` + `list` calls (each one KV round trip; on",
    "Deno Deploy each is a network call); writes = atomic commits + direct `set`/`delete`.",
    "",
    "| turn | reads | get | getMany (keys) | list (entries) | writes | atomic commits | mutations in commits | checks in commits | direct set/delete |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    "By key prefix, 2nd turn:",
    "",
    "| prefix | get | getMany calls (keys) | list calls (entries) | mutations | checks | direct set/delete |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...prefixRows(followUp),
  ].join("\n");
}

async function historySection(): Promise<string> {
  const server = await startTestServer({ config: testConfig() });
  const store = server.services.store;
  const empty: Timed[] = [];
  const full: Timed[] = [];
  const loads: number[] = [];
  let historyBytes = 0;
  try {
    const seed = newChatId();
    const warm = await turn(server, "", seed);
    const cookie = warm.cookie;
    const visitorId = (await store.getChat(seed))!.visitorId;
    const [user, answer] = await store.loadMessages(seed) as ChatMessage[];
    // 100 question/answer pairs like a real offline turn's (the answer keeps its tool parts).
    const history: ChatMessage[] = [];
    for (let i = 0; history.length < HISTORY; i++) {
      history.push({ ...user, id: `u_h${i}` }, { ...answer, id: `a_h${i}` });
    }
    historyBytes = history.reduce(
      (n, m) => n + encodeMessage(m).reduce((k, p) => k + p.length, 0),
      0,
    );

    const prefill = async (chatId: string) => {
      // Several commits: one turn's commit must stay under KV's size and mutation limits.
      for (let i = 0; i < history.length; i += 40) {
        await store.beginTurn({
          chatId,
          visitorId,
          replaceFrom: null,
          append: history.slice(i, i + 40),
        });
      }
    };
    for (let i = 0; i < 5; i++) {
      const c = newChatId();
      await prefill(c);
      await turn(server, cookie, c);
      await turn(server, cookie, newChatId());
    }
    for (let i = 0; i < HISTORY_REPS; i++) {
      const withHistory = newChatId();
      await prefill(withHistory);
      const t = performance.now();
      const loaded = await store.loadMessages(withHistory);
      loads.push(performance.now() - t);
      if (loaded.length !== HISTORY) throw new Error(`prefilled ${loaded.length} messages`);
      // Alternate the order so drift weighs on both alike.
      const pair = i % 2 === 0
        ? [await turn(server, cookie, newChatId()), await turn(server, cookie, withHistory)]
        : [await turn(server, cookie, withHistory), await turn(server, cookie, newChatId())]
          .reverse();
      empty.push(pair[0].timed);
      full.push(pair[1].timed);
    }
  } finally {
    await server.close();
  }
  const bad = [...empty, ...full].filter((t) => !t.ok || !Number.isFinite(t.ttft)).length;
  const stat = (xs: number[]) => [percentile(xs, 50), percentile(xs, 95)];
  const [e50, e95] = stat(empty.map((t) => t.ttft));
  const [h50, h95] = stat(full.map((t) => t.ttft));
  const [et50, et95] = stat(empty.map((t) => t.total));
  const [ht50, ht95] = stat(full.map((t) => t.total));
  const [l50, l95] = stat(loads);
  return [
    `### Latency added by a ${HISTORY}-message history`,
    "",
    `POST /api/chat first token (first \`text-delta\`) on a chat pre-filled through`,
    `\`services.store.beginTurn\` with ${HISTORY} messages (${
      HISTORY / 2
    } copies of a real offline turn: question, and answer with its \`search_site\` tool part;`,
    `${kb(historyBytes)} of message JSON) against a new, empty chat. Offline model, in-memory`,
    `KV, ${HISTORY_REPS} turns each, interleaved; ms. The history adds its KV load, message`,
    "validation and conversion before the model starts.",
    "",
    "| chat | first token p50 | first token p95 | whole turn p50 | whole turn p95 |",
    "| --- | ---: | ---: | ---: | ---: |",
    `| empty | ${f2(e50)} | ${f2(e95)} | ${f2(et50)} | ${f2(et95)} |`,
    `| ${HISTORY} messages | ${f2(h50)} | ${f2(h95)} | ${f2(ht50)} | ${f2(ht95)} |`,
    `| **added** | **${f2(h50 - e50)}** | **${f2(h95 - e95)}** | ${f2(ht50 - et50)} | ${
      f2(ht95 - et95)
    } |`,
    "",
    `Of which \`store.loadMessages\` of the ${HISTORY} messages alone (same KV, outside a request): p50 ${
      f2(l50)
    } ms, p95 ${f2(l95)} ms.${bad ? ` **${bad} turns did not finish properly.**` : ""}`,
  ].join("\n");
}

async function limiterSection(): Promise<string> {
  const big = { requestsPerMinute: 1_000_000_000, tokensPerDay: 1_000_000_000_000 };
  const dir = await Deno.makeTempDir({ prefix: "kv-bench-" });
  const rows: string[] = [];
  const bursts: string[] = [];
  try {
    for (
      const [label, path] of [[":memory:", ":memory:"], ["temp file (SQLite)", `${dir}/kv.sqlite`]]
    ) {
      const kv = await Deno.openKv(path);
      try {
        const limiter = createRateLimiter(kv, { visitor: big, ip: big });
        for (let i = 0; i < 200; i++) await limiter.check("warm-visitor", "127.0.0.2");
        const times: number[] = [];
        for (let i = 0; i < LIMIT_CALLS; i++) {
          const t = performance.now();
          const refused = await limiter.check("visitor-1", "127.0.0.1");
          times.push(performance.now() - t);
          if (refused) throw new Error("the limiter refused with limits out of the way");
        }
        const mean = times.reduce((a, b) => a + b, 0) / times.length;
        rows.push(
          `| ${label} | ${LIMIT_CALLS} | ${f2(percentile(times, 50))} | **${
            f2(percentile(times, 95))
          }** | ${f2(percentile(times, 99))} | ${f2(mean)} |`,
        );

        // A burst: 200 concurrent checks from one visitor and IP, as the chat bench sends.
        const each: number[] = [];
        const t0 = performance.now();
        const settled = await Promise.allSettled(
          Array.from({ length: 200 }, async () => {
            const t = performance.now();
            try {
              return await limiter.check("burst-visitor", "127.0.0.9");
            } finally {
              each.push(performance.now() - t);
            }
          }),
        );
        const wall = performance.now() - t0;
        const failed = settled.filter((s) => s.status === "rejected");
        const reason = failed.length
          ? ` (\`${
            String((failed[0] as PromiseRejectedResult).reason?.message ?? "").slice(0, 80)
          }…\`)`
          : "";
        bursts.push(
          `| ${label} | 200 | ${wall.toFixed(0)} | ${f2(percentile(each, 50))} | ${
            f2(percentile(each, 95))
          } | ${failed.length}${reason} |`,
        );
      } finally {
        kv.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  return [
    "### Rate-limit check",
    "",
    "`createRateLimiter(kv, limits).check(visitor, ip)` called directly, sequentially, with",
    `limits out of the way so every call takes the KV path (a checked read-modify-write of the`,
    `visitor and IP minute counters in one atomic commit, then a \`getMany\` of the day's token`,
    `counters): ${LIMIT_CALLS} calls after 200 warm-up calls; ms.`,
    "",
    "| KV | calls | p50 | p95 | p99 | mean |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    "The same limiter under a burst of 200 concurrent `check()` calls sharing one visitor and",
    "one IP (what N=200 concurrent chats from one client are; the counters are one key each, so",
    "the checked commits race and retry, up to 20 attempts):",
    "",
    "| KV | concurrent calls | wall time, ms | per call p50 | per call p95 | calls that threw |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    ...bursts,
  ].join("\n");
}

/** Runs the bench; returns the markdown section. */
export async function run(): Promise<string> {
  const t0 = performance.now();
  const log = (what: string) =>
    console.error(`kv bench: ${what} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  const counts = await countsSection();
  log("counts done");
  const history = await historySection();
  log("history done");
  const limiter = await limiterSection();
  log("rate limiter done");
  return [
    "## KV: operations per turn, history cost, rate-limit check",
    "",
    "`tests/bench/kv_bench.ts`, in one process on 127.0.0.1, offline model.",
    "",
    counts,
    "",
    history,
    "",
    limiter,
  ].join("\n");
}

if (import.meta.main) console.log(await run());
