import assert from "node:assert/strict";
import fc from "fast-check";
import { validateUIMessages } from "ai";
import { plainChatRequest, schemaChatRequest } from "@/lib/protocol/chat_request.ts";
import { newUserMessage } from "./request.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";

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

// The hand check of the usual body stands in for the schema: whatever it accepts, the schema
// accepts too, with the same result; everything else still goes to the schema.
Deno.test("plainChatRequest: accepts only what bodySchema accepts, with the same result", () => {
  const str = fc.oneof(
    fc.string({ maxLength: 3 }),
    fc.string({ minLength: 60, maxLength: 140 }),
    fc.constantFrom("user", "assistant", "system", "text", "submit-message", "regenerate-message"),
  );
  const value = fc.oneof(str, fc.jsonValue({ maxDepth: 2 }));
  // Mostly well-formed, sometimes anything: both sides of every check get exercised.
  const maybe = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: value, weight: 1 });
  const extra = <T extends Record<string, unknown>>(base: fc.Arbitrary<T>, keys: string[]) =>
    fc.oneof(
      { arbitrary: base, weight: 6 },
      {
        arbitrary: fc.tuple(base, fc.dictionary(fc.constantFrom(...keys), value)).map((
          [b, more],
        ) => ({ ...more, ...b })),
        weight: 1,
      },
    );
  const part = maybe(extra(
    fc.record({
      type: maybe(fc.constantFrom("text", "", "file", "x".repeat(65))),
      text: maybe(fc.string()),
    }, { requiredKeys: ["type"] }),
    ["state", "__proto__", "providerMetadata"],
  ));
  const message = maybe(extra(
    fc.record({
      id: maybe(fc.oneof(fc.string({ maxLength: 130 }), fc.constant(""))),
      role: maybe(fc.constantFrom("user", "assistant", "system")),
      parts: maybe(fc.array(part, { maxLength: 4 })),
    }, { requiredKeys: ["role", "parts"] }),
    ["metadata", "__proto__", "constructor"],
  ));
  const body = extra(
    fc.record({
      id: maybe(fc.constantFrom("abcdefgh", "c0123456789abcdefghij", "bad id!", "short")),
      message,
      model: maybe(fc.oneof(fc.constantFrom("openai/gpt-4.1-mini", ""), fc.string())),
      trigger: maybe(fc.constantFrom("submit-message", "regenerate-message", "x")),
      messageId: maybe(fc.string({ maxLength: 130 })),
    }, { requiredKeys: ["id"] }),
    ["extra", "__proto__", "constructor"],
  );
  let taken = 0;
  fc.assert(
    fc.property(body, (generated) => {
      // As the server gets it: parsed JSON.
      const b = JSON.parse(JSON.stringify(generated));
      const fast = plainChatRequest(b);
      if (fast === null) return;
      taken++;
      assert.deepEqual(fast, schemaChatRequest(b));
    }),
    { numRuns: 5000 },
  );
  assert.ok(taken > 50, `the hand check took only ${taken} bodies`);
  const usual = {
    id: "c0123456789abcdefghij",
    trigger: "submit-message",
    model: "openai/gpt-4.1-mini",
    message: { id: "u_1", role: "user", parts: [{ type: "text", text: "Oi" }] },
  };
  assert.deepEqual(plainChatRequest(usual), schemaChatRequest(usual));
  // `__proto__` and `constructor` keys, metadata and extra part fields go to the schema.
  for (
    const raw of [
      '{"id":"abcdefgh","__proto__":{"x":1},"message":{"id":"u","role":"user","parts":[]}}',
      '{"id":"abcdefgh","message":{"id":"u","role":"user","parts":[],"metadata":{}}}',
      '{"id":"abcdefgh","message":{"id":"u","role":"user","parts":[{"type":"text","text":"a","__proto__":{}}]}}',
      '{"id":"abcdefgh","message":{"id":"u","role":"user","parts":[{"type":"text","text":[[[]]]}]}}',
    ]
  ) assert.equal(plainChatRequest(JSON.parse(raw)), null, raw);
});
