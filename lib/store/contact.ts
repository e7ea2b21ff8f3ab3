/**
 * Messages visitors send to the site owner (the "contact" agent's POST /api/contact).
 *
 *   ["contact", id] → ContactMessage, expiring `retentionDays` after it arrived
 *
 * Ids sort by arrival time (a fixed-width base-36 time, a per-process sequence, then
 * random characters), so listing the prefix in reverse gives the newest first and the
 * last id of a page is the cursor of the next one.
 */
import type { AssistantContext } from "@/lib/agents/request.ts";

/** A stored message to the owner. */
export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  message: string;
  /** ISO 8601 time of arrival. */
  receivedAt: string;
  /** The sender's visitor id, or "anonymous" without a visitor cookie. */
  visitorId: string;
  /** The chat the assistant sent it from, when its `X-Assistant-Context` header was well-formed. */
  context?: AssistantContext;
}

/** What {@linkcode ContactStore.save} stores (id and time are added). */
export type NewContactMessage = Omit<ContactMessage, "id" | "receivedAt">;

/** One page of {@linkcode ContactStore.list}. */
export interface ContactPage {
  messages: ContactMessage[];
  /** The cursor of the next (older) page, or null on the last one. */
  cursor: string | null;
}

/** What `GET /api/contact/status` answers. */
export interface ContactStatus {
  accepting: true;
  /** Messages received in the last 24 hours (counted up to {@linkcode STATUS_COUNT_CAP}). */
  received: number;
}

/** The store of messages to the owner. */
export interface ContactStore {
  save(input: NewContactMessage): Promise<ContactMessage>;
  /** Newest first; `cursor` is a page's `cursor`, `limit` 1–100 (default 20). */
  list(options?: { cursor?: string; limit?: number }): Promise<ContactPage>;
  status(): Promise<ContactStatus>;
}

/** The shape of a message id (and so of a cursor). */
export const CONTACT_ID = /^[0-9a-z]{19}$/;

/** Most messages `status()` counts: it reads them, so a flood must not make it slow. */
export const STATUS_COUNT_CAP = 10_000;

const PREFIX = "contact";
const DAY = 86_400_000;
const TIME_WIDTH = 9; // base 36: enough for every millisecond until the year 5000
const SEQ_WIDTH = 2;

/**
 * The KV-backed store. `clock` gives arrival times and ids (tests); the expiry is
 * always relative to the real now, as KV's `expireIn` is.
 */
export function createContactStore(
  kv: Deno.Kv,
  { retentionDays, clock = Date.now }: { retentionDays: number; clock?: () => number },
): ContactStore {
  const newId = idMaker(clock);
  return {
    async save(input) {
      const { id, time } = newId();
      const record: ContactMessage = {
        id,
        name: input.name,
        email: input.email,
        message: input.message,
        receivedAt: new Date(time).toISOString(),
        visitorId: input.visitorId,
        ...(input.context ? { context: input.context } : {}),
      };
      await kv.set([PREFIX, id], record, { expireIn: retentionDays * DAY });
      return record;
    },

    async list({ cursor, limit = 20 } = {}) {
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        throw new RangeError(`The page limit must be an integer from 1 to 100, got ${limit}.`);
      }
      if (cursor !== undefined && !CONTACT_ID.test(cursor)) {
        throw new RangeError(
          `The cursor "${
            cursor.slice(0, 40)
          }" is not a message id: send back a page's cursor unchanged.`,
        );
      }
      const selector = cursor ? { prefix: [PREFIX], end: [PREFIX, cursor] } : { prefix: [PREFIX] };
      const messages: ContactMessage[] = [];
      // One more than asked tells whether an older page exists.
      for await (
        const entry of kv.list<ContactMessage>(selector, { reverse: true, limit: limit + 1 })
      ) {
        messages.push(entry.value);
      }
      const more = messages.length > limit;
      if (more) messages.length = limit;
      return { messages, cursor: more ? messages[limit - 1].id : null };
    },

    async status() {
      const since = timePart(Math.max(0, clock() - DAY));
      let received = 0;
      const iter = kv.list({ start: [PREFIX, since], end: [PREFIX, "~"] }, {
        limit: STATUS_COUNT_CAP,
        batchSize: 500,
      });
      for await (const _ of iter) received++;
      return { accepting: true, received };
    },
  };
}

function timePart(time: number): string {
  return Math.floor(time).toString(36).padStart(TIME_WIDTH, "0");
}

/** Ids that grow with time, and within one millisecond with a sequence. */
function idMaker(clock: () => number) {
  let lastTime = -1;
  let seq = 0;
  return (): { id: string; time: number } => {
    let time = clock();
    if (time <= lastTime) {
      // Same (or an earlier, on a clock step back) millisecond: keep the order of arrival.
      time = lastTime;
      seq++;
      if (seq >= 36 ** SEQ_WIDTH) {
        time++;
        seq = 0;
      }
    } else {
      seq = 0;
    }
    lastTime = time;
    const random = Array.from(
      crypto.getRandomValues(new Uint8Array(8)),
      (b) => (b % 36).toString(36),
    ).join("");
    return { id: timePart(time) + seq.toString(36).padStart(SEQ_WIDTH, "0") + random, time };
  };
}
