import assert from "node:assert/strict";
import { createEmbedderFromEnv } from "./embedder_providers.ts";
import { EmbedderError } from "./errors.ts";

interface Seen {
  path: string;
  auth: string | null;
  body: Record<string, unknown>;
}

/**
 * A loopback server answering in each provider's documented embedding shape,
 * and a fetch that sends the provider's real URL to it (path kept).
 */
async function withServer(fn: (fetch: typeof globalThis.fetch, seen: Seen[]) => Promise<void>) {
  const seen: Seen[] = [];
  const vec = (i: number) => [i + 1, 0.5, -0.25];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.json();
    seen.push({
      path: url.pathname,
      auth: req.headers.get("authorization") ?? req.headers.get("x-goog-api-key"),
      body,
    });
    if (url.pathname.endsWith("/embeddings")) { // OpenAI and OpenAI-compatible
      const inputs: string[] = body.input;
      return Response.json({
        object: "list",
        data: inputs.map((_, index) => ({ object: "embedding", index, embedding: vec(index) })),
        model: body.model,
        usage: { prompt_tokens: 3, total_tokens: 3 },
      });
    }
    if (url.pathname.endsWith(":batchEmbedContents")) {
      return Response.json({
        embeddings: body.requests.map((_: unknown, i: number) => ({ values: vec(i) })),
      });
    }
    if (url.pathname.endsWith(":embedContent")) {
      return Response.json({ embedding: { values: vec(0) } });
    }
    return new Response("not found", { status: 404 });
  });
  const port = server.addr.port;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const u = new URL(input instanceof Request ? input.url : String(input));
    return globalThis.fetch(`http://127.0.0.1:${port}${u.pathname}${u.search}`, init);
  };
  try {
    await fn(fetch, seen);
  } finally {
    await server.shutdown();
  }
}

Deno.test("no EMBEDDING_MODEL: lexical search, no embedder", () => {
  assert.equal(createEmbedderFromEnv({}), null);
});

Deno.test("misconfiguration names the missing variable", () => {
  assert.throws(
    () => createEmbedderFromEnv({ EMBEDDING_MODEL: "openai:text-embedding-3-small" }),
    (e) => e instanceof EmbedderError && /OPENAI_API_KEY is not set/.test(e.message),
  );
  assert.throws(
    () => createEmbedderFromEnv({ EMBEDDING_MODEL: "acme:x" }),
    /Unknown embedding provider "acme"/,
  );
  assert.throws(
    () => createEmbedderFromEnv({ EMBEDDING_MODEL: "bge" }),
    /not "<provider>:<model>"/,
  );
  assert.throws(
    () =>
      createEmbedderFromEnv({
        EMBEDDING_MODEL: "cloudflare:@cf/baai/bge-m3",
        CLOUDFLARE_API_TOKEN: "t",
      }),
    /CLOUDFLARE_ACCOUNT_ID/,
  );
});

Deno.test("OpenAI adapter: POST /v1/embeddings", async () => {
  await withServer(async (fetch, seen) => {
    const e = createEmbedderFromEnv({
      EMBEDDING_MODEL: "openai:text-embedding-3-small",
      OPENAI_API_KEY: "sk-test",
    }, fetch)!;
    assert.equal(e.model, "openai:text-embedding-3-small");
    const out = await e.embed(["a", "b"]);
    assert.deepEqual(out.map((v) => [...v]), [[1, 0.5, -0.25], [2, 0.5, -0.25]]);
    assert.equal(seen[0].path, "/v1/embeddings");
    assert.equal(seen[0].auth, "Bearer sk-test");
    assert.deepEqual(seen[0].body.input, ["a", "b"]);
    assert.equal(seen[0].body.model, "text-embedding-3-small");
  });
});

Deno.test("Gemini adapter: batchEmbedContents with retrieval task types", async () => {
  await withServer(async (fetch, seen) => {
    const e = createEmbedderFromEnv(
      { EMBEDDING_MODEL: "google:gemini-embedding-001", GOOGLE_GENERATIVE_AI_API_KEY: "g-test" },
      fetch,
    )!;
    const out = await e.embed(["a", "b"], { kind: "passage" });
    assert.equal(out.length, 2);
    assert.equal(seen[0].path, "/v1beta/models/gemini-embedding-001:batchEmbedContents");
    assert.equal(seen[0].auth, "g-test");
    const reqs = seen[0].body.requests as Array<{ taskType: string }>;
    assert.equal(reqs[0].taskType, "RETRIEVAL_DOCUMENT");
    const [q] = await e.embed(["query"], { kind: "query" });
    assert.deepEqual([...q], [1, 0.5, -0.25]);
    assert.equal((seen[1].body as { taskType: string }).taskType, "RETRIEVAL_QUERY");
  });
});

Deno.test("Cloudflare Workers AI adapter: OpenAI-compatible endpoint of the account", async () => {
  await withServer(async (fetch, seen) => {
    const e = createEmbedderFromEnv({
      EMBEDDING_MODEL: "cloudflare:@cf/baai/bge-m3",
      CLOUDFLARE_ACCOUNT_ID: "acc123",
      CLOUDFLARE_API_TOKEN: "cf-token",
    }, fetch)!;
    const out = await e.embed(["olá"]);
    assert.deepEqual([...out[0]], [1, 0.5, -0.25]);
    assert.equal(seen[0].path, "/client/v4/accounts/acc123/ai/v1/embeddings");
    assert.equal(seen[0].auth, "Bearer cf-token");
    assert.equal(seen[0].body.model, "@cf/baai/bge-m3");
  });
});

Deno.test("local OpenAI-compatible adapter: LOCAL_OPENAI_BASE_URL", async () => {
  await withServer(async (fetch, seen) => {
    const e = createEmbedderFromEnv(
      {
        EMBEDDING_MODEL: "local:nomic-embed-text",
        LOCAL_OPENAI_BASE_URL: "http://localhost:11434/v1/",
      },
      fetch,
    )!;
    const texts = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const out = await e.embed(texts);
    assert.equal(out.length, 200);
    assert.ok(seen.length >= 3, "large inputs are batched");
    assert.equal(seen[0].path, "/v1/embeddings");
    assert.equal(seen[0].body.model, "nomic-embed-text");
  });
});
