/**
 * A server process for tests that need several processes sharing one KV file.
 * Env: DENO_KV_PATH (required), SESSION_SECRET, LIMIT_VISITOR_RPM, and the OpenAI
 * provider's OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_API (a replay server). Prints
 * "listening <port>" once ready.
 */
import defaultConfig from "@/fresh.config.ts";
import { createServerApp } from "@/lib/server.ts";

const rpm = Number(Deno.env.get("LIMIT_VISITOR_RPM") ?? 1000);
const config = {
  ...defaultConfig,
  limits: { ...defaultConfig.limits, visitor: { requestsPerMinute: rpm, tokensPerDay: 1_000_000 } },
};
const env = {
  DENO_KV_PATH: Deno.env.get("DENO_KV_PATH"),
  SESSION_SECRET: Deno.env.get("SESSION_SECRET"),
  OPENAI_API_KEY: Deno.env.get("OPENAI_API_KEY"),
  OPENAI_BASE_URL: Deno.env.get("OPENAI_BASE_URL"),
  OPENAI_API: Deno.env.get("OPENAI_API"),
};
const { app } = await createServerApp({ env, config });
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening ${port}`),
}, app);
