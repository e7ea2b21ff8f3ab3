/**
 * In-flight answers of this isolate, so another tab of the same visitor can
 * follow an answer while it streams (GET /api/chat/:id/stream). Chunks are kept
 * only while the answer streams and a short while after; the saved message is
 * the record. A disconnect stops the answer (see lib/chat/turn.ts), so a
 * reload is answered from KV, not from here.
 */
import type { UIMessageChunk } from "ai";

interface Live {
  visitorId: string;
  chunks: UIMessageChunk[];
  done: boolean;
  listeners: Set<() => void>;
}

/** Where a turn copies its chunks. */
export interface TrackedStream {
  push(chunk: UIMessageChunk): void;
  /** Marks the answer finished (idempotent). */
  end(): void;
}

/** Registry of in-flight answer streams. */
export interface StreamRegistry {
  /** Starts recording the answer of `chatId`. */
  track(chatId: string, visitorId: string): TrackedStream;
  /** A replay-then-follow stream of the chat's in-flight answer, or null when there is none. */
  follow(chatId: string, visitorId: string): ReadableStream<UIMessageChunk> | null;
}

/** Creates the registry; `lingerMs` keeps a finished stream briefly for late reconnects. */
export function createStreamRegistry(
  { lingerMs = 5_000 }: { lingerMs?: number } = {},
): StreamRegistry {
  const live = new Map<string, Live>();
  return {
    track(chatId, visitorId) {
      const entry: Live = { visitorId, chunks: [], done: false, listeners: new Set() };
      live.set(chatId, entry);
      const notify = () => entry.listeners.forEach((l) => l());
      return {
        push(chunk) {
          entry.chunks.push(chunk);
          notify();
        },
        end() {
          if (entry.done) return;
          entry.done = true;
          notify();
          setTimeout(() => live.get(chatId) === entry && live.delete(chatId), lingerMs);
        },
      };
    },
    follow(chatId, visitorId) {
      const entry = live.get(chatId);
      if (!entry || entry.visitorId !== visitorId || entry.done) return null;
      let sent = 0;
      let wake: (() => void) | null = null;
      return new ReadableStream<UIMessageChunk>({
        async pull(controller) {
          while (sent >= entry.chunks.length && !entry.done) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              entry.listeners.add(resolve);
            });
            if (wake) entry.listeners.delete(wake);
          }
          if (sent < entry.chunks.length) controller.enqueue(entry.chunks[sent++]);
          else controller.close();
        },
        cancel() {
          if (wake) entry.listeners.delete(wake);
        },
      });
    },
  };
}
