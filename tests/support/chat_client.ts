/**
 * Test helpers for POST /api/chat: a cookie jar that keeps the signed visitor
 * cookie across requests, request builders, an SSE reader that keeps comment
 * lines (heartbeats), and a poll for what the store saved.
 */
import type { UIMessage, UIMessageChunk } from "ai";
import defaultConfig from "@/fresh.config.ts";
import type { AppConfig } from "@/lib/config.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { ChatStore } from "@/lib/store/ports.ts";

/** Keeps cookies set by the server and sends them back, like a browser does. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** The `Cookie` header value, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** Stores the cookies of a response. */
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  /** A `fetch` that sends and stores this jar's cookies. */
  readonly fetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const cookie = this.header();
    if (cookie && !headers.has("cookie")) headers.set("cookie", cookie);
    const res = await fetch(input, { ...init, headers });
    this.take(res);
    return res;
  };
}

/** A fresh chat id in the format the endpoint accepts. */
export function newChatId(): string {
  return "c" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/** A user message with one text part. */
export function userMessage(
  text: string,
  id = "u_" + crypto.randomUUID().slice(0, 8),
): ChatMessage {
  return { id, role: "user", parts: [{ type: "text", text }] };
}

/** POSTs a JSON body to /api/chat with the jar's cookies. */
export function postChat(
  baseUrl: string,
  body: unknown,
  options: { jar?: CookieJar; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const f = options.jar?.fetch ?? fetch;
  return f(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...options.headers },
    body: JSON.stringify(body),
    signal: options.signal,
  });
}

/** A parsed SSE response body. */
export interface SseRead {
  /** Every `data:` payload parsed as JSON, `[DONE]` excluded. */
  chunks: UIMessageChunk[];
  /** Comment lines (without the leading colon), e.g. " keep-alive". */
  comments: string[];
  /** Whether the stream ended with `data: [DONE]`. */
  done: boolean;
  /** The raw text. */
  raw: string;
}

/** Splits complete SSE text into events. */
export function parseSseText(raw: string): SseRead {
  const chunks: UIMessageChunk[] = [];
  const comments: string[] = [];
  let done = false;
  for (const event of raw.split("\n\n")) {
    if (!event) continue;
    for (const line of event.split("\n")) {
      if (line.startsWith(":")) comments.push(line.slice(1));
      else if (line.startsWith("data: ")) {
        const data = line.slice(6);
        if (data === "[DONE]") done = true;
        else chunks.push(JSON.parse(data));
      } else if (line) {
        throw new Error(`Unexpected SSE line: ${JSON.stringify(line)}`);
      }
    }
  }
  return { chunks, comments, done, raw };
}

/** Reads a whole SSE response. */
export async function readSse(res: Response): Promise<SseRead> {
  return parseSseText(await res.text());
}

/**
 * Reads an SSE body incrementally until `until` says stop (then cancels the reader and
 * returns what was seen) or the body ends.
 */
export async function readSseUntil(
  res: Response,
  until: (read: SseRead) => boolean,
): Promise<SseRead & { stopped: boolean }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let raw = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return { ...parseSseText(raw), stopped: false };
      raw += value;
      const complete = raw.slice(0, raw.lastIndexOf("\n\n") + 2);
      const read = parseSseText(complete);
      if (until(read)) {
        await reader.cancel().catch(() => {});
        return { ...read, stopped: true };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** The streamed text of the text parts, from raw chunks. */
export function streamedText(chunks: UIMessageChunk[]): string {
  return chunks.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
}

/** The text of a message's text parts. */
export function messageText(message: UIMessage | undefined): string {
  return (message?.parts ?? []).flatMap((p) => p.type === "text" ? [p.text] : []).join("");
}

/** Polls the store until `ok(messages)` holds; throws after `timeoutMs`. */
export async function waitForMessages(
  store: ChatStore,
  chatId: string,
  ok: (messages: ChatMessage[]) => boolean,
  timeoutMs = 3000,
): Promise<ChatMessage[]> {
  const end = performance.now() + timeoutMs;
  let last: ChatMessage[] = [];
  while (performance.now() < end) {
    last = await store.loadMessages(chatId) as ChatMessage[];
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(
    `Store of chat ${chatId} did not reach the expected state in ${timeoutMs} ms: ${
      JSON.stringify(last).slice(0, 2000)
    }`,
  );
}

/** The default configuration with rate limits out of the way (tests send many requests). */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const big = { requestsPerMinute: 1_000_000, tokensPerDay: 1_000_000_000 };
  return { ...defaultConfig, limits: { visitor: big, ip: big }, ...overrides };
}

/** JSON normalisation: drops `undefined` fields the way a KV save (JSON) does. */
export function viaJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}
