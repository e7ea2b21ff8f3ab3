import assert from "node:assert/strict";
import fc from "fast-check";
import { validateUIMessages } from "ai";
import { newUserMessage } from "./request.ts";
import type { ChatMessage } from "./types.ts";

// The turn skips the SDK's UI message schema for a new message that passes `newUserMessage`
// with at least one part. That holds only while the schema can refuse nothing else of that
// shape: this pins it, so an SDK upgrade that tightens the schema fails here first.
Deno.test("newUserMessage: the SDK's schema refuses a checked text message only when it has no parts", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 128 }),
      fc.array(
        fc.record({ type: fc.constant("text"), text: fc.string(), state: fc.constant("done") }),
        { maxLength: 4 },
      ),
      async (id, parts) => {
        const checked = await newUserMessage({ id, role: "user", parts } as ChatMessage);
        assert.equal(checked.error, undefined);
        let sdkRefused = false;
        try {
          await validateUIMessages<ChatMessage>({ messages: [checked.message] });
        } catch {
          sdkRefused = true;
        }
        assert.equal(sdkRefused, parts.length === 0);
        assert.equal(checked.invalid !== undefined, sdkRefused);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("newUserMessage: role, part types and an empty message give the same 400s as before", async () => {
  const wrongRole = await newUserMessage({ id: "u", role: "assistant", parts: [] } as ChatMessage);
  assert.equal(wrongRole.error?.message, 'A new message must have role "user".');
  const filePart = await newUserMessage({
    id: "u",
    role: "user",
    parts: [{ type: "file", mediaType: "image/png", url: "http://x" }],
  } as ChatMessage);
  assert.equal(filePart.error?.message, 'A new message may only hold "text" parts.');
  const empty = await newUserMessage({ id: "u", role: "user", parts: [] } as ChatMessage);
  assert.equal(empty.error, undefined);
  assert.match(empty.invalid?.message ?? "", /^Invalid "message": /);
  assert.equal(empty.invalid?.code, "invalid_request");
  // Extra fields of the visitor's message and parts are dropped.
  const extra = await newUserMessage({
    id: "u",
    role: "user",
    metadata: { costUsd: 0 },
    parts: [{ type: "text", text: "hi", providerMetadata: { x: {} } }],
  } as ChatMessage);
  assert.deepEqual(extra.message, { id: "u", role: "user", parts: [{ type: "text", text: "hi" }] });
});
