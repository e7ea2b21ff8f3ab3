import assert from "node:assert/strict";
import type { UIMessage } from "ai";
import { createKvChatStore } from "@/lib/store/chats.ts";
import { KV_LIMITS } from "@/lib/store/kv.ts";
import { collectArtifacts } from "./versions.ts";
import { MAX_ARTIFACT_BYTES } from "./types.ts";
import { tempKvPath } from "@/tests/support/temp.ts";

/** An answer holding version `version` of artifact "big", `bytes` of content. */
function answer(id: string, version: number, bytes: number): UIMessage {
  const head = `<!-- v${version} -->`;
  const content = head + "x".repeat(bytes - head.length);
  return {
    id,
    role: "assistant",
    parts: [
      {
        type: "tool-create_artifact",
        toolCallId: `call-${version}`,
        state: "output-available",
        input: { artifactId: "big", title: "Big", kind: "html", content },
        output: { artifactId: "big", version, title: "Big", kind: "html", bytes: content.length },
      } as UIMessage["parts"][number],
      { type: "text", text: `Versão ${version}.` },
    ],
  };
}

Deno.test("artifact versions over the 64 KiB KV value limit are stored with the chat and come back whole", async () => {
  const path = tempKvPath();
  let kv = await Deno.openKv(path);
  const store = createKvChatStore(kv, { retentionDays: 30 });
  const sizes = [MAX_ARTIFACT_BYTES, 100 * 1024, KV_LIMITS.maxValueBytes + 1];
  for (const [i, bytes] of sizes.entries()) {
    await store.beginTurn({
      chatId: "chat-artifacts",
      visitorId: "v1",
      replaceFrom: null,
      append: [
        { id: `u${i}`, role: "user", parts: [{ type: "text", text: "de novo" }] },
        answer(`a${i}`, i + 1, bytes),
      ],
    });
  }
  kv.close();
  // A new handle on the same file: what a reload (or another isolate) reads.
  kv = await Deno.openKv(path);
  const messages = await createKvChatStore(kv, { retentionDays: 30 }).loadMessages(
    "chat-artifacts",
  );
  kv.close();
  const versions = collectArtifacts(messages).get("big")!;
  assert.deepEqual(versions.map((v) => v.version), [1, 2, 3]);
  assert.deepEqual(versions.map((v) => v.content.length), sizes);
  assert.deepEqual(versions.map((v) => v.content.slice(0, 11)), [
    "<!-- v1 -->",
    "<!-- v2 -->",
    "<!-- v3 -->",
  ]);
  assert.deepEqual(versions.map((v) => v.messageId), ["a0", "a1", "a2"]);
});

Deno.test("collectArtifacts: only made versions count; refused and streaming parts do not", () => {
  const made = answer("a1", 1, 100);
  const refused: UIMessage = {
    id: "a2",
    role: "assistant",
    parts: [
      {
        type: "tool-create_artifact",
        toolCallId: "r",
        state: "output-available",
        input: {},
        output: { error: "Artifact not created: x" },
      } as UIMessage["parts"][number],
      {
        type: "tool-create_artifact",
        toolCallId: "s",
        state: "input-streaming",
        input: { title: "B" },
      } as UIMessage["parts"][number],
    ],
  };
  const all = collectArtifacts([made, refused]);
  assert.deepEqual([...all.keys()], ["big"]);
  assert.equal(all.get("big")!.length, 1);
});
