import assert from "node:assert/strict";
import defaultConfig from "@/fresh.config.ts";
import {
  type AppConfigInput,
  DEFAULT_ABANDON_AFTER_SECONDS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  DEFAULT_RETRIEVAL,
  DEFAULT_TOOL_CALL_LIMITS,
  defineConfig,
} from "./config.ts";
import { DEFAULT_MODEL_DEADLINES } from "./models/deadlines.ts";
import type { AgentConfig, OpenApiAgentConfig } from "./agents/types.ts";

/** The shipped configuration without the fields that have defaults. */
function base(): AppConfigInput {
  const {
    modelDeadlines: _d,
    maxOutputTokens: _m,
    abandonAfterSeconds: _a,
    retrieval: _r,
    ...rest
  } = defaultConfig;
  return rest;
}

Deno.test("config: model deadlines and maxOutputTokens default when left out", () => {
  const config = defineConfig(base());
  assert.deepEqual(config.modelDeadlines, DEFAULT_MODEL_DEADLINES);
  assert.equal(config.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
  assert.equal(DEFAULT_MAX_OUTPUT_TOKENS, 4096);
  assert.equal(config.abandonAfterSeconds, DEFAULT_ABANDON_AFTER_SECONDS);
  assert.equal(DEFAULT_ABANDON_AFTER_SECONDS, 30);
  const partial = defineConfig({ ...base(), modelDeadlines: { idleMs: 90_000 } });
  assert.deepEqual(partial.modelDeadlines, {
    firstByteMs: DEFAULT_MODEL_DEADLINES.firstByteMs,
    idleMs: 90_000,
  });
});

Deno.test("config: a bad deadline or maxOutputTokens stops the start with the field's name", () => {
  assert.throws(
    () => defineConfig({ ...base(), modelDeadlines: { firstByteMs: -5 } }),
    /fresh\.config\.ts: "modelDeadlines\.firstByteMs" must be .*got -5\./,
  );
  assert.throws(
    () => defineConfig({ ...base(), modelDeadlines: { idleMs: Number.NaN } }),
    /"modelDeadlines\.idleMs"/,
  );
  assert.throws(
    () => defineConfig({ ...base(), maxOutputTokens: 0 }),
    /fresh\.config\.ts: "maxOutputTokens" must be an integer from 1 to 1000000, got 0\./,
  );
  for (const bad of [0, -1, Number.NaN, 3601]) {
    assert.throws(
      () => defineConfig({ ...base(), abandonAfterSeconds: bad }),
      /fresh\.config\.ts: "abandonAfterSeconds" must be a number of seconds above 0/,
    );
  }
});

Deno.test("config: the shipped config declares the contact agent on the app's own origin", () => {
  assert.deepEqual(
    defaultConfig.agents?.map((a) => [a.id, a.runIn, a.baseUrl, (a as OpenApiAgentConfig).spec]),
    [["contact", "server", "self", "static/agents/contact.json"]],
  );
});

Deno.test("config: a bad agent stops the start with a message naming the agent and the fix", () => {
  const agent: AgentConfig = {
    id: "shop",
    name: "Shop",
    description: "Orders.",
    spec: "static/agents/shop.json",
    baseUrl: "https://api.example.com/v1",
    runIn: "server",
  };
  assert.equal(defineConfig({ ...base(), agents: [agent] }).agents?.[0], agent);
  const perLocale = { ...agent, name: { "pt-BR": "Loja", en: "Shop" } };
  assert.equal(defineConfig({ ...base(), agents: [perLocale] }).agents?.[0], perLocale);
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ id: "Shop!" }, /fresh\.config\.ts: Agent "Shop!": the id must match/],
    [{ baseUrl: "http://api.example.com" }, /Agent "shop": baseUrl .* is not https\. Fix/],
    [{ baseUrl: "api.example.com" }, /Agent "shop": baseUrl "api\.example\.com" is not a plain/],
    [{ runIn: "edge" }, /Agent "shop": "runIn" is "edge"\. Fix/],
    [{ spec: " " }, /Agent "shop": "spec" must be a non-empty string\. Fix/],
    [{ name: "" }, /Agent "shop": "name" is empty\. Fix/],
    [{ name: { "pt-BR": "Loja" } }, /Agent "shop": "name" has no text for "en"\. Fix/],
    [{ description: { "pt-BR": "Pedidos.", en: "" } }, /"description" has no text for "en"/],
  ];
  for (const [change, message] of cases) {
    assert.throws(
      () => defineConfig({ ...base(), agents: [{ ...agent, ...change } as AgentConfig] }),
      message,
    );
  }
  assert.throws(
    () => defineConfig({ ...base(), agents: [agent, agent] }),
    /two agents have the id "shop"/,
  );
  assert.throws(
    () =>
      defineConfig({
        ...base(),
        agents: [{ ...agent, runIn: "browser", headers: { Authorization: "Bearer ${TOKEN}" } }],
      }),
    /Agent "shop": header "Authorization" references the environment, but the agent runs in the browser/,
  );
  // "self" is this app's origin: accepted without being a URL.
  assert.equal(
    defineConfig({ ...base(), agents: [{ ...agent, baseUrl: "self" }] }).agents?.length,
    1,
  );
});

Deno.test("config: retrieval defaults to prefetch; tool is kept; anything else stops the start", () => {
  assert.equal(DEFAULT_RETRIEVAL, "prefetch");
  assert.equal(defineConfig(base()).retrieval, "prefetch");
  assert.equal(defineConfig({ ...base(), retrieval: "tool" }).retrieval, "tool");
  assert.throws(
    () => defineConfig({ ...base(), retrieval: "search" as "tool" }),
    /"retrieval" must be "prefetch" or "tool", got "search"/,
  );
});

Deno.test("config: toolCalls defaults to 8 a step, 24 a turn, 4 at once; bad bounds stop the start", () => {
  const { toolCalls: _t, ...rest } = base();
  assert.deepEqual(defineConfig(rest).toolCalls, DEFAULT_TOOL_CALL_LIMITS);
  assert.deepEqual(DEFAULT_TOOL_CALL_LIMITS, { perStep: 8, perTurn: 24, concurrency: 4 });
  assert.deepEqual(defineConfig({ ...rest, toolCalls: { perTurn: 40 } }).toolCalls, {
    perStep: 8,
    perTurn: 40,
    concurrency: 4,
  });
  for (
    const [bad, field] of [[{ perStep: 0 }, "perStep"], [{ perTurn: 1.5 }, "perTurn"], [{
      concurrency: 33,
    }, "concurrency"]] as const
  ) {
    assert.throws(
      () => defineConfig({ ...rest, toolCalls: bad }),
      new RegExp(`fresh\\.config\\.ts: "toolCalls\\.${field}" must be an integer from 1 to`),
    );
  }
  assert.throws(
    () => defineConfig({ ...rest, toolCalls: { perStep: 30, perTurn: 24 } }),
    /"toolCalls\.perStep" \(30\) is above "toolCalls\.perTurn" \(24\)/,
  );
});
