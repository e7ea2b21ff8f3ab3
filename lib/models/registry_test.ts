import assert from "node:assert/strict";
import { buildCatalog, CATALOG } from "./catalog.ts";
import { createModelRegistry, ModelUnavailableError } from "./registry.ts";
import { localize } from "@/lib/i18n/localized.ts";
import { providerSdk } from "./provider_sdks.ts";

Deno.test("catalog: ids are unique, every provider has models, prices are set", () => {
  const ids = CATALOG.map((m) => m.id);
  assert.equal(new Set(ids).size, ids.length);
  for (
    const provider of [
      "openai",
      "google",
      "cerebras",
      "openrouter",
      "cloudflare",
      "local-endpoint",
      "offline",
    ]
  ) {
    assert.ok(CATALOG.some((m) => m.provider === provider), provider);
  }
  for (const m of CATALOG) {
    assert.ok(m.contextWindow > 0, m.id);
    assert.ok(m.pricing.inputPerMTok >= 0 && m.pricing.outputPerMTok >= 0, m.id);
    if (m.provider !== "offline" && m.provider !== "local-endpoint") {
      assert.ok(m.pricing.inputPerMTok > 0, `${m.id} has a price`);
    }
  }
  const cf = CATALOG.find((m) => m.provider === "cloudflare")!;
  assert.equal(cf.providerModelId, "@cf/meta/llama-3.3-70b-instruct-fp8-fast");
});

Deno.test("catalog: the offline model says plainly it quotes the site", () => {
  const local = CATALOG.find((m) => m.id === "local")!;
  assert.equal(local.family, "offline");
  assert.equal(local.provider, "offline");
  assert.match(localize(local.label, "pt-BR"), /cita o site/);
  assert.match(localize(local.label, "pt-BR"), /cita o site, sem IA$/);
  assert.match(localize(local.label, "en"), /quotes the site, no AI$/);
});

Deno.test("catalog: the local endpoint's model comes from LOCAL_OPENAI_MODEL", () => {
  assert.equal(CATALOG.find((m) => m.id === "local-endpoint")!.providerModelId, "llama3.2");
  const custom = buildCatalog({ LOCAL_OPENAI_MODEL: "qwen2.5:7b" });
  assert.equal(custom.find((m) => m.id === "local-endpoint")!.providerModelId, "qwen2.5:7b");
});

Deno.test("registry: get() needs ready(), which loads the configured families' modules only", async () => {
  const registry = createModelRegistry({ env: { CEREBRAS_API_KEY: "k" } });
  assert.throws(
    () => registry.get("local"),
    /"offline" family is not loaded: await registry\.ready\(\)/,
  );
  assert.throws(
    () => registry.get("cerebras/gpt-oss-120b"),
    /"openai-compatible" family is not loaded: await registry\.ready\(\)/,
  );
  await registry.ready();
  assert.equal(registry.get("local").specificationVersion, "v4");
  assert.equal(registry.get("cerebras/gpt-oss-120b").modelId, "gpt-oss-120b");
  // OpenAI is not configured, so its package was not loaded (nor needed).
  assert.throws(() => providerSdk("openai"), /"openai" family is not loaded/);
});

Deno.test("registry: with no keys only the offline model is available and is the default", async () => {
  const registry = createModelRegistry({ env: {} });
  const available = registry.list().filter((m) => m.available).map((m) => m.id);
  assert.deepEqual(available, ["local"]);
  assert.equal(registry.defaultModelId(), "local");
  await registry.ready();
  assert.equal(registry.get("local").specificationVersion, "v4");
  assert.deepEqual(registry.providerStatus(), {
    openai: "missing",
    google: "missing",
    cerebras: "missing",
    openrouter: "missing",
    cloudflare: "missing",
    "local-endpoint": "missing",
    offline: "configured",
  });
});

Deno.test("registry: a key makes its provider's models available and the default", async () => {
  const registry = createModelRegistry({
    env: { CEREBRAS_API_KEY: "k", OPENROUTER_API_KEY: " ", CLOUDFLARE_ACCOUNT_ID: "acc" },
  });
  assert.equal(registry.defaultModelId(), "cerebras/gpt-oss-120b");
  const status = registry.providerStatus();
  assert.equal(status.cerebras, "configured");
  // Blank values and half a Cloudflare configuration do not count.
  assert.equal(status.openrouter, "missing");
  assert.equal(status.cloudflare, "missing");
  await registry.ready();
  const model = registry.get("cerebras/llama-3.3-70b");
  assert.equal(model.specificationVersion, "v4");
  assert.equal(model.modelId, "llama-3.3-70b");
});

Deno.test("registry: OpenAI comes first in the default order", async () => {
  const registry = createModelRegistry({
    env: { OPENAI_API_KEY: "k", GOOGLE_GENERATIVE_AI_API_KEY: "g", LOCAL_OPENAI_BASE_URL: "x" },
  });
  await registry.ready();
  assert.equal(registry.defaultModelId(), "openai/gpt-5-mini");
  assert.equal(registry.get("google/gemini-2.5-flash").modelId, "gemini-2.5-flash");
  assert.match(registry.get("openai/gpt-5-mini").provider, /responses/);
  assert.match(registry.get("openai/gpt-5-mini", { openaiApi: "chat" }).provider, /chat/);
});

Deno.test("registry: unknown and unavailable models throw ModelUnavailableError", () => {
  const registry = createModelRegistry({ env: {} });
  assert.throws(() => registry.get("nope"), (error: unknown) => {
    assert.ok(error instanceof ModelUnavailableError);
    assert.equal(error.reason, "unknown");
    assert.equal(error.code, "model_unavailable");
    assert.match(error.message, /Unknown model "nope"/);
    return true;
  });
  assert.throws(() => registry.get("cloudflare/llama-3.3-70b-instruct-fp8-fast"), (error) => {
    assert.ok(error instanceof ModelUnavailableError);
    assert.equal(error.reason, "unavailable");
    assert.match(error.message, /set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN/);
    return true;
  });
});

Deno.test("registry: list() returns copies the caller may change", () => {
  const registry = createModelRegistry({ env: {} });
  registry.list()[0].pricing.inputPerMTok = 99;
  assert.notEqual(registry.list()[0].pricing.inputPerMTok, 99);
});
