import assert from "node:assert/strict";
import defaultConfig from "@/fresh.config.ts";
import { systemPrompt } from "./system_prompt.ts";

Deno.test("system prompt: internal passages are background, never quoted or cited", () => {
  const text = systemPrompt(defaultConfig, new Date("2026-01-02T00:00:00Z"));
  assert.match(text, /Passages marked `internal`/);
  assert.match(text, /Never quote them, cite them/);
  assert.match(text, /Today is 2026-01-02\./);
});

Deno.test("system prompt: tells the model when to make an artifact and how to revise one", () => {
  const text = systemPrompt(defaultConfig, new Date("2026-01-02T00:00:00Z"));
  assert.match(text, /call `create_artifact`/);
  assert.match(text, /no network/);
  assert.match(text, /`artifactId` its result returned/);
});

Deno.test("system prompt: names the visitor's interface language, for questions in neither", () => {
  const at = new Date("2026-01-02T00:00:00Z");
  assert.match(systemPrompt(defaultConfig, at, "en"), /The visitor's interface is in English/);
  assert.match(systemPrompt(defaultConfig, at), /interface is in Brazilian Portuguese/);
});
