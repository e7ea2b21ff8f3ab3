import assert from "node:assert/strict";
import defaultConfig from "@/fresh.config.ts";
import { type AppConfigInput, DEFAULT_MAX_OUTPUT_TOKENS, defineConfig } from "./config.ts";
import { DEFAULT_MODEL_DEADLINES } from "./models/deadlines.ts";

/** The shipped configuration without the fields that have defaults. */
function base(): AppConfigInput {
  const { modelDeadlines: _d, maxOutputTokens: _m, ...rest } = defaultConfig;
  return rest;
}

Deno.test("config: model deadlines and maxOutputTokens default when left out", () => {
  const config = defineConfig(base());
  assert.deepEqual(config.modelDeadlines, DEFAULT_MODEL_DEADLINES);
  assert.equal(config.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
  assert.equal(DEFAULT_MAX_OUTPUT_TOKENS, 4096);
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
});
