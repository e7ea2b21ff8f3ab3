/**
 * The pieces the chat benches share: the floor server's request handler (the thinnest
 * server over the OpenAI Chat Completions adapter) and a stream log that writes nothing.
 */
import { createOpenAI } from "@ai-sdk/openai";
import type { StreamLog } from "@/lib/store/ports.ts";

/** A stream log that writes nothing: the app as it was before answers were logged to KV. */
export function silentStreamLog(): StreamLog {
  const stats = { commits: 0, mutations: 0, bytes: 0, batches: 0 };
  return {
    open: (_chatId, streamId) => ({
      streamId,
      append() {},
      heartbeat: () => Promise.resolve(),
      end: () => Promise.resolve(),
      stopped: () => false,
      onStop: () => () => {},
      stats: () => stats,
    }),
    active: () => Promise.resolve(null),
    follow: () => new ReadableStream({ start: (c) => c.close() }),
    requestStop: () => Promise.resolve(),
    touchListener: () => Promise.resolve(),
    lastListenedAt: () => Promise.resolve(null),
  };
}

/**
 * The floor: parses the body, calls the adapter's `doStream` on `<replay>/v1` and writes the
 * text as UI message chunks; no KV, checks, history, tools or engine.
 */
export function floorHandler(replay: string): (request: Request) => Promise<Response> {
  const model = createOpenAI({ apiKey: "x", baseURL: `${replay}/v1` }).chat("gpt-4.1-mini");
  const encoder = new TextEncoder();
  const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
  return async (request) => {
    const body = await request.json() as { message: { parts: { text: string }[] } };
    const { stream } = await model.doStream({
      prompt: [{ role: "user", content: [{ type: "text", text: body.message.parts[0].text }] }],
      abortSignal: request.signal,
    });
    const reader = stream.getReader();
    let started = false;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          while (true) {
            const { done, value: part } = await reader.read();
            let out = "";
            if (!started) {
              started = true;
              out += event({ type: "start" }) + event({ type: "start-step" });
            }
            if (done) {
              out += event({ type: "finish-step" }) + event({ type: "finish" }) +
                "data: [DONE]\n\n";
              controller.enqueue(encoder.encode(out));
              return controller.close();
            }
            if (part.type === "text-delta") {
              out += event({ type: "text-delta", id: part.id, delta: part.delta });
            } else if (part.type === "text-start" || part.type === "text-end") {
              out += event({ type: part.type, id: part.id });
            }
            if (out) return controller.enqueue(encoder.encode(out));
          }
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  };
}
