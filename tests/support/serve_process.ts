/**
 * A server process for tests that need several processes sharing one KV file.
 * Env: DENO_KV_PATH (required), SESSION_SECRET, ADMIN_TOKEN, LIMIT_VISITOR_RPM, and the OpenAI
 * provider's OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_API (a replay server), or
 * LOCAL_MODEL_DELAY_MS: the offline model, pausing that long between words (tests only).
 * Prints "listening <port>" once ready.
 */
import defaultConfig from "@/fresh.config.ts";
import { createModelRegistry } from "@/lib/models/registry.ts";
import { createServerApp } from "@/lib/server.ts";

const rpm = Number(Deno.env.get("LIMIT_VISITOR_RPM") ?? 1000);
const config = {
  ...defaultConfig,
  limits: { ...defaultConfig.limits, visitor: { requestsPerMinute: rpm, tokensPerDay: 1_000_000 } },
};
const env = {
  DENO_KV_PATH: Deno.env.get("DENO_KV_PATH"),
  SESSION_SECRET: Deno.env.get("SESSION_SECRET"),
  ADMIN_TOKEN: Deno.env.get("ADMIN_TOKEN"),
  OPENAI_API_KEY: Deno.env.get("OPENAI_API_KEY"),
  OPENAI_BASE_URL: Deno.env.get("OPENAI_BASE_URL"),
  OPENAI_API: Deno.env.get("OPENAI_API"),
};
const delay = Deno.env.get("LOCAL_MODEL_DELAY_MS");
const services = delay
  ? { models: createModelRegistry({ env: {}, local: { delayMs: Number(delay) } }) }
  : undefined;
const { app } = await createServerApp({ env, config, services });
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, app);
