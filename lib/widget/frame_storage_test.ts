import assert from "node:assert/strict";
import {
  type FrameStorage,
  frameStorage,
  keepLastChat,
  LAST_CHAT_KEY,
  readLastChat,
} from "./frame_storage.ts";

function mapStorage(): FrameStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/** A storage that refuses everything, as a browser blocking third-party storage does. */
const refusing: FrameStorage = {
  getItem() {
    throw new DOMException("Access is denied for this document.", "SecurityError");
  },
  setItem() {
    throw new DOMException("Access is denied for this document.", "SecurityError");
  },
  removeItem() {
    throw new DOMException("Access is denied for this document.", "SecurityError");
  },
};

Deno.test("last chat: kept, read back, forgotten; nothing kept without storage", () => {
  const storage = mapStorage();
  assert.equal(readLastChat(storage), null);
  keepLastChat(storage, "c0123456789abcdef0123");
  assert.equal(storage.map.get(LAST_CHAT_KEY), "c0123456789abcdef0123");
  assert.equal(readLastChat(storage), "c0123456789abcdef0123");
  keepLastChat(storage, null);
  assert.equal(readLastChat(storage), null);
  assert.equal(storage.map.size, 0);
  // No storage, or storage that throws: no chat, no error.
  keepLastChat(null, "c0123456789abcdef0123");
  assert.equal(readLastChat(null), null);
  keepLastChat(refusing, "c0123456789abcdef0123");
  assert.equal(readLastChat(refusing), null);
});

Deno.test("last chat: a stored value that is no chat id is not reopened", () => {
  const storage = mapStorage();
  for (const bad of ["../api/me", "short", "c".repeat(65), "a b c d e f g h"]) {
    storage.map.set(LAST_CHAT_KEY, bad);
    assert.equal(readLastChat(storage), null, bad);
  }
});

Deno.test("frameStorage: the window's localStorage, or null where reading it throws", () => {
  const storage = mapStorage() as unknown as Storage;
  assert.equal(frameStorage({ localStorage: storage }), storage);
  assert.equal(frameStorage({}), null);
  const blocked = {
    get localStorage(): Storage {
      throw new DOMException("Access is denied for this document.", "SecurityError");
    },
  };
  assert.equal(frameStorage(blocked), null);
  assert.equal(frameStorage({ localStorage: refusing as unknown as Storage }), null);
});
