/**
 * The resume followers (`GET /api/chat/:id/stream`) of each chat, counted so
 * that one chat cannot hold an unbounded number of open streams, each with
 * its KV watch and its touch timer. Counts are per server instance (isolate):
 * the cap bounds what one instance spends on one chat.
 */

/** Open followers by chat id, in one instance. */
export class FollowerCounts {
  readonly #counts = new Map<string, number>();

  /**
   * Takes a place among `chatId`'s followers when fewer than `max` hold one.
   * Returns the function that gives it back (calling it again does nothing),
   * or null when the chat is full.
   */
  enter(chatId: string, max: number): (() => void) | null {
    const now = this.#counts.get(chatId) ?? 0;
    if (now >= max) return null;
    this.#counts.set(chatId, now + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = (this.#counts.get(chatId) ?? 1) - 1;
      if (left > 0) this.#counts.set(chatId, left);
      else this.#counts.delete(chatId);
    };
  }

  /** Open followers of `chatId`. */
  count(chatId: string): number {
    return this.#counts.get(chatId) ?? 0;
  }
}

const byApp = new WeakMap<object, FollowerCounts>();

/** The follower counts of one app (its services object), made on first use. */
export function followersOf(app: object): FollowerCounts {
  let counts = byApp.get(app);
  if (!counts) byApp.set(app, counts = new FollowerCounts());
  return counts;
}
