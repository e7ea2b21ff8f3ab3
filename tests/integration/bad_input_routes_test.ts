/**
 * Bad input over every route of fresh.gen.ts (the chat route has its own, deeper
 * suite in chat_bad_input_test.ts): seeded random requests mixing malformed,
 * huge and mistyped bodies, garbage query strings, malformed, forged and huge
 * cookies, and hostile headers. Every answer comes in bounded time, is never a
 * 5xx, and is a documented JSON error on /api/ or an HTML page elsewhere.
 * Prints the requests and statuses per route.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import manifest from "@/fresh.gen.ts";
import { ERROR_STATUS } from "@/lib/http/errors.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

const RUNS = 640;
const SEED = 20240611;
const TIMEOUT_MS = 10_000;
const ADMIN_TOKEN = "admin-token-0123456789abcdef";
const ALLOWED_ORIGIN = "https://widget.example";
/** Codes the HTTP contract documents for what a client can cause (no 5xx but 503). */
const DOCUMENTED = new Set([
  "invalid_request",
  "unauthorized",
  "origin_not_allowed",
  "not_found",
  "method_not_allowed",
  "payload_too_large",
  "rate_limited",
  "unavailable",
]);
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** What the generator knows of the running server's data. */
interface World {
  url: string;
  ownChat: string;
  ownCookie: string;
}

/** One generated request, before the world's values are filled in. */
interface Spec {
  route: string;
  method: string;
  id: string;
  query: string;
  body: { type: string | null; text: string } | null;
  cookie: string;
  headers: [string, string][];
}

/** A path for each route file, with the chat id or slug the generator chose. */
const PATHS: Record<string, (id: string) => string> = {
  "index.tsx": () => "/",
  "en/index.ts": () => "/en",
  "c/[id].tsx": (id) => `/c/${id}`,
  "c/[id]/delete.tsx": (id) => `/c/${id}/delete`,
  "c/[id]/rename.ts": (id) => `/c/${id}/rename`,
  "me/delete.tsx": () => "/me/delete",
  "lang/[code].ts": (id) => `/lang/${id.length % 3 ? "en" : id.length % 2 ? "pt-BR" : id}`,
  "sobre/[slug].tsx": (id) => `/sobre/${id.length % 2 ? "como-funciona" : id}`,
  "en/about/[slug].tsx": (id) => `/en/about/${id.length % 2 ? "how-it-works" : id}`,
  "api/chat.ts": () => "/api/chat",
  "api/chat/[id]/stream.ts": (id) => `/api/chat/${id}/stream`,
  "api/chat/[id]/stop.ts": (id) => `/api/chat/${id}/stop`,
  "api/chats.ts": () => "/api/chats",
  "api/chats/[id].ts": (id) => `/api/chats/${id}`,
  "api/chats/[id]/feedback.ts": (id) => `/api/chats/${id}/feedback`,
  "api/health.ts": () => "/api/health",
  "api/me.ts": () => "/api/me",
  "api/models.ts": () => "/api/models",
  "api/title.ts": () => "/api/title",
  "api/usage.ts": () => "/api/usage",
  "api/contact.ts": () => "/api/contact",
  "api/contact/status.ts": () => "/api/contact/status",
  "admin/messages.tsx": () => "/admin/messages",
  "admin/index.tsx": () => "/admin",
  "admin/login.tsx": () => "/admin/login",
  "admin/logout.ts": () => "/admin/logout",
  "admin/gaps.tsx": () => "/admin/gaps",
  "admin/gaps.csv.ts": () => "/admin/gaps.csv",
  "respostas/[id].tsx": (id) => `/respostas/${id}`,
  "widget.tsx": (id) => `/widget?lang=${id}&agent=${id}`,
  "api/widget.ts": () => "/api/widget",
  "api/visitor-token.ts": () => "/api/visitor-token",
  "artifact/frame.ts": (id) => `/artifact/frame?parent=${encodeURIComponent(`http://${id}`)}`,
  "_404.tsx": (id) => `/no-such/${id}`,
  "mcp.ts": () => "/mcp",
  "llms.txt.ts": () => "/llms.txt",
  "llms-full.txt.ts": () => "/llms-full.txt",
};
/** The methods each route implements, favoured by the generator. */
const OWN_METHODS: Record<string, string[]> = {
  "index.tsx": ["GET", "POST"],
  "c/[id].tsx": ["GET", "POST"],
  "c/[id]/delete.tsx": ["GET", "POST"],
  "c/[id]/rename.ts": ["POST"],
  "me/delete.tsx": ["GET", "POST"],
  "api/chat.ts": ["POST", "OPTIONS"],
  "api/chats/[id].ts": ["GET", "PATCH", "DELETE"],
  "api/chats/[id]/feedback.ts": ["POST"],
  "api/me.ts": ["DELETE"],
  "api/title.ts": ["POST"],
  "api/contact.ts": ["POST"],
  "admin/login.tsx": ["GET", "POST"],
  "admin/logout.ts": ["POST"],
  "admin/gaps.tsx": ["GET", "POST"],
  "api/visitor-token.ts": ["POST"],
  "mcp.ts": ["POST"],
};

const printable = fc.string({
  unit: fc.constantFrom(..." !\"#$%&'()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~é"),
  maxLength: 40,
});
const ids = fc.oneof(
  { arbitrary: fc.constant("$own"), weight: 3 },
  fc.constant("c" + "0".repeat(20)),
  fc.constantFrom(
    "x",
    "%zz",
    "..%2F..%2Fetc",
    "a".repeat(200),
    "%00",
    "%E0%A4%A",
    "-_-_-_-_",
    "😀",
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,70}$/),
).map((s) => s === "😀" ? encodeURIComponent(s) : s);
const queries = fc.oneof(
  fc.constant(""),
  fc.constantFrom(
    "?cursor=garbage",
    "?cursor=YR%3D%3D",
    "?cursor=%zz",
    "?cursor=" + "A".repeat(5000),
    "?limit=abc",
    "?limit=-1",
    "?limit=1e309",
    "?limit=100000000000",
    "?days=0",
    "?days=xyz",
    "?days=366",
    "?limit=1&cursor=",
    "?%zz=%zz",
    "?a=1&a=2&&&=",
    "?__proto__=1&constructor=x",
  ),
  fc.array(fc.tuple(fc.constantFrom("cursor", "limit", "days", "x", "id"), printable), {
    maxLength: 3,
  }).map((pairs) => pairs.length ? "?" + new URLSearchParams(pairs).toString() : ""),
);
const jsonValues = fc.oneof(
  fc.constant({ id: "$own", title: "Novo título", messageId: "m1", rating: "up" }),
  fc.constant({
    id: "$own",
    message: { id: "u1", role: "user", parts: [{ type: "text", text: "Oi" }] },
  }),
  fc.record({
    id: fc.oneof(fc.constant("$own"), fc.string(), fc.integer(), fc.constant(null)),
    title: fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string()),
    ),
    messageId: fc.oneof(fc.string(), fc.integer()),
    rating: fc.constantFrom("up", "down", null, "sideways", 1),
    comment: fc.oneof(fc.string({ maxLength: 50 }), fc.constant("x".repeat(3000)), fc.integer()),
    message: fc.anything({ maxDepth: 2 }),
  }, { requiredKeys: [] }),
  fc.anything({ maxDepth: 3 }),
);
const bodies = fc.oneof(
  fc.constant(null),
  jsonValues.map((v) => ({ type: "application/json", text: JSON.stringify(v) ?? "null" })),
  fc.constantFrom(
    { type: "application/json", text: "{" },
    { type: "application/json", text: "" },
    { type: "application/json", text: "\uFEFF{}" },
    { type: "application/json", text: '{"id":' + "[".repeat(5000) },
    { type: "text/plain", text: "not json" },
    { type: "application/xml", text: "<a/>" },
    { type: null, text: "title=x" },
    { type: "application/x-www-form-urlencoded", text: "title=%zz&title=%" },
    { type: "application/x-www-form-urlencoded", text: "title=" + "t".repeat(9000) },
    { type: "multipart/form-data", text: "--x\r\n" },
    { type: "multipart/form-data; boundary=x", text: "--x\r\nbroken" },
    { type: "application/json; charset=utf-16", text: '{"a":1}' },
  ),
  fc.integer({ min: 9_000, max: 2_000_000 }).map((n) => ({
    type: "application/json",
    text: '{"title":"' + "a".repeat(n) + '"}',
  })),
  fc.integer({ min: 9_000, max: 300_000 }).map((n) => ({
    type: "application/x-www-form-urlencoded",
    text: "title=" + "b".repeat(n),
  })),
);
const cookies = fc.oneof(
  fc.constant(""),
  { arbitrary: fc.constant("$own"), weight: 4 },
  fc.constantFrom(
    "visitor=%zz",
    "__Host-visitor=%",
    "lang=%zz; visitor=%E0%A4%A",
    "visitor=" + "A".repeat(24) + ".forged",
    "visitor=" + "A".repeat(24) + "." + "B".repeat(43),
    "visitor=.",
    "visitor=" + "x".repeat(7000),
    "lang=xx; lang=en; visitor=",
    ";;;=;=;",
    "visitor=$own-tampered",
  ),
  printable.map((s) => `visitor=${s.replace(/[;,\s]/g, "")}`),
);
const headerSets = fc.array(
  fc.oneof(
    fc.constantFrom<[string, string]>(
      ["origin", "https://evil.example"],
      ["origin", "null"],
      ["origin", ALLOWED_ORIGIN],
      ["origin", "$self"],
      ["sec-fetch-site", "cross-site"],
      ["sec-fetch-site", "same-origin"],
      ["referer", "$self//evil.example/x"],
      ["referer", "$self/\\evil.example"],
      ["referer", "javascript:alert(1)"],
      ["referer", "not a url"],
      ["accept-language", "q=abc,,;;,en;q=NaN,*;q=-1"],
      ["accept-language", "x".repeat(4000)],
      ["authorization", ADMIN_TOKEN],
      ["authorization", `Bearer ${ADMIN_TOKEN}`],
      ["authorization", `Bearer ${ADMIN_TOKEN}x`],
      ["authorization", "Bearer"],
      ["authorization", "Basic Zm9vOmJhcg=="],
      ["authorization", "Bearer vt1.garbage"],
      ["authorization", `Bearer vt1.${"A".repeat(24)}.0.99999999999999.${"B".repeat(43)}`],
      ["accept", "text/event-stream"],
      ["x-forwarded-for", "1.2.3.4, evil"],
      ["content-length", "abc"],
    ),
    fc.tuple(fc.constantFrom("origin", "referer", "accept-language", "authorization"), printable),
  ),
  { maxLength: 4 },
);

function specs(): Spec[] {
  const routes = Object.keys(manifest.routes).filter((f) =>
    !/(^|\/)_(middleware|app|500)\./.test(f)
  );
  for (const r of routes) assert.ok(PATHS[r], `The suite has no path for route "${r}": add one.`);
  const spec = fc.record({
    route: fc.constantFrom(...routes),
    methodPick: fc.nat(99),
    anyMethod: fc.constantFrom(...METHODS),
    id: ids,
    query: queries,
    body: bodies,
    cookie: cookies,
    headers: headerSets,
  }).map(({ route, methodPick, anyMethod, ...rest }): Spec => {
    const own = OWN_METHODS[route] ?? ["GET"];
    const method = methodPick < 80 ? own[methodPick % own.length] : anyMethod;
    return { route, method, ...rest };
  });
  return fc.sample(spec, { seed: SEED, numRuns: RUNS });
}

/** Turns a spec into a Request for the world (own chat, own cookie, own origin). */
function toRequest(s: Spec, w: World): { path: string; init: RequestInit } {
  const fill = (t: string) =>
    t.replaceAll("$own-tampered", w.ownCookie.slice(0, -2) + "xx").replaceAll("$own", w.ownChat)
      .replaceAll("$self", w.url);
  const path = PATHS[s.route](s.id === "$own" ? w.ownChat : s.id) + fill(s.query);
  const headers = new Headers();
  for (const [k, v] of s.headers) headers.set(k, fill(v));
  const cookie = s.cookie === "$own"
    ? `visitor=${w.ownCookie}`
    : fill(s.cookie).replaceAll(w.ownChat, w.ownCookie);
  if (cookie) headers.set("cookie", cookie);
  const canHaveBody = s.method !== "GET" && s.method !== "HEAD";
  const body = canHaveBody && s.body ? fill(s.body.text) : undefined;
  if (canHaveBody && s.body?.type) headers.set("content-type", s.body.type);
  if (!canHaveBody || body === undefined) headers.delete("content-length");
  else headers.delete("content-length"); // fetch sets the true length; a forged one is refused client-side
  return { path, init: { method: s.method, headers, body, redirect: "manual" } };
}

/** Checks one answer against the contract; returns a problem or null. Reads the whole body. */
async function check(path: string, res: Response): Promise<string | null> {
  const isApi = path.startsWith("/api/") || path === "/api" || /^\/mcp(\?|$)/.test(path);
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  if (res.status >= 500 && !(res.status === 503 && text.includes('"unavailable"'))) {
    return `a ${res.status}: ${text.slice(0, 200)}`;
  }
  if (res.status < 400) return null;
  if (isApi) {
    if (!type.startsWith("application/json")) return `${res.status} is not JSON (${type})`;
    if (!text) return null; // HEAD
    let body: { error?: { code?: string | number; message?: string } };
    try {
      body = JSON.parse(text);
    } catch {
      return `${res.status} body is not JSON: ${text.slice(0, 100)}`;
    }
    // /mcp answers JSON-RPC: a numeric error code and a message, or the API's own error.
    if (path.startsWith("/mcp") && typeof body.error?.code === "number") {
      return body.error.message ? null : "no message";
    }
    const code = String(body.error?.code ?? "");
    if (!DOCUMENTED.has(code)) return `undocumented code "${code}"`;
    if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== res.status) {
      return `code "${code}" with status ${res.status}`;
    }
    if (typeof body.error?.message !== "string" || !body.error.message) return "no message";
    return null;
  }
  if (!type.startsWith("text/html")) return `${res.status} page is not HTML (${type})`;
  return null;
}

Deno.test("bad input on every route: no 5xx, no hang, documented errors", async () => {
  const server = await startTestServer({
    config: testConfig({ allowedOrigins: [ALLOWED_ORIGIN] }),
    env: { ADMIN_TOKEN },
  });
  try {
    const jar = new CookieJar();
    const ownChat = newChatId();
    assert.ok(
      (await readSse(
        await postChat(server.url, { id: ownChat, message: userMessage("Oi") }, { jar }),
      ))
        .done,
    );
    const world: World = { url: server.url, ownChat, ownCookie: jar.cookies.get("visitor")! };
    const all = specs();
    assert.ok(all.length >= 500);
    const counts = new Map<string, Map<number, number>>();
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const s = all[next++];
        const { path, init } = toRequest(s, world);
        const label = `${s.method} ${path.slice(0, 80)} ${JSON.stringify(s).slice(0, 300)}`;
        let status = -1;
        try {
          const res = await fetch(server.url + path, {
            ...init,
            signal: AbortSignal.timeout(TIMEOUT_MS),
          });
          status = res.status;
          const problem = await check(path, res);
          if (problem) problems.push(`${label}: ${problem}`);
        } catch (error) {
          problems.push(`${label}: no answer in time or broken: ${error}`);
        }
        const byStatus = counts.get(s.route) ?? new Map<number, number>();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        counts.set(s.route, byStatus);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const rows = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([route, byStatus]) => ({
      route,
      requests: [...byStatus.values()].reduce((a, b) => a + b, 0),
      statuses: [...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" "),
    }));
    console.log(`bad input: ${all.length} requests, seed ${SEED}`);
    console.table(rows);
    assert.equal(rows.length, Object.keys(PATHS).length, "every route was exercised");
    assert.deepEqual(problems, []);
  } finally {
    await server.close();
  }
});
