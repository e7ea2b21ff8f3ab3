import assert from "node:assert/strict";
import defaultConfig from "@/fresh.config.ts";
import { systemPrompt } from "./system_prompt.ts";

Deno.test("system prompt: internal passages are background, never quoted or cited", () => {
  const text = systemPrompt(defaultConfig, new Date("2026-01-02T00:00:00Z"));
  assert.match(text, /Passages marked `internal`/);
  assert.match(text, /Never quote them, cite them/);
  assert.match(text, /Today is 2026-01-02\./);
});
