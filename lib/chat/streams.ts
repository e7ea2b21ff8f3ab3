/**
 * In-flight answers of this isolate, so a visitor who reloads mid-answer can
 * follow it again (GET /api/chat/:id/stream). Chunks are kept only while the
 * answer streams and a short while after; the saved message is the record.
 */
import type { UIMessageChunk } from "ai";

interface Live {
  visitorId: string;
  chunks: UIMessageChunk[];
  done: boolean;
  listeners: Set<() => void>;
}

/** Registry of in-flight answer streams. */
export interface StreamRegistry {
  /** Records a stream for `chatId`; returns a transform that copies chunks into the registry. */
  track(chatId: string, visitorId: string): TransformStream<UIMessageChunk, UIMessageChunk>;
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
      const finish = () => {
        entry.done = true;
        notify();
        setTimeout(() => live.get(chatId) === entry && live.delete(chatId), lingerMs);
      };
      return new TransformStream({
        transform(chunk, controller) {
          entry.chunks.push(chunk);
          notify();
          controller.enqueue(chunk);
        },
        flush: finish,
        cancel: finish,
      });
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
