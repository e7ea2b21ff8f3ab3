import assert from "node:assert/strict";
import { extractUsage, UsageScanner } from "./usage_scan.ts";

const encoder = new TextEncoder();
const FIXTURES = new URL("../../tests/fixtures/providers/", import.meta.url);

/** The SSE body of a recorded `*.chunks.txt` fixture (one JSON event a line). */
function sseBody(fixture: string): string {
  return Deno.readTextFileSync(new URL(fixture, FIXTURES)).split("\n").filter((l) => l.trim())
    .map((line) => `data: ${line}\n\n`).join("") + "data: [DONE]\n\n";
}

/** `bytes` cut at pseudo-random places (mid-line and mid-character included), seeded. */
function cut(bytes: Uint8Array, seed: number, most: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  let state = seed;
  for (let at = 0; at < bytes.length;) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % most);
    parts.push(bytes.slice(at, at + size));
    at += size;
  }
  return parts;
}

function scan(parts: Uint8Array[], contentType = "text/event-stream"): UsageScanner {
  const scanner = new UsageScanner(contentType);
  for (const part of parts) scanner.push(part);
  scanner.end();
  return scanner;
}

/** What the scanner must find, from the whole body decoded at once, line by line. */
function expected(body: string) {
  let input: number | null = null, output: number | null = null, streamed = 0;
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:") || line === "data: [DONE]") continue;
    const usage = extractUsage(JSON.parse(line.slice(5)));
    if (usage.input !== null) input = usage.input;
    if (usage.output !== null) output = usage.output;
    // The strings after a text key, as the wire escapes them, in UTF-8 bytes.
    for (const [, text] of line.matchAll(/"(?:content|text)":"((?:[^"\\]|\\.)*)"/g)) {
      streamed += encoder.encode(text).length;
    }
  }
  return { input, output, streamed };
}

Deno.test("usage scan: recorded streams give their usage however the body is cut", () => {
  for (
    const fixture of ["openai-text.chunks.txt", "google-text.chunks.txt", "xai-text.chunks.txt"]
  ) {
    const body = sseBody(fixture);
    const want = expected(body);
    assert.notEqual(want.output, null, fixture);
    const bytes = encoder.encode(body);
    // One chunk an event (as providers send them), then cuts anywhere, down to a byte.
    const events = body.split(/(?<=\n\n)/).map((e) => encoder.encode(e));
    for (
      const parts of [events, [bytes], cut(bytes, 7, 300), cut(bytes, 11, 17), cut(bytes, 3, 2)]
    ) {
      const scanner = scan(parts);
      assert.deepEqual(
        {
          input: scanner.inputTokens,
          output: scanner.outputTokens,
          streamed: scanner.streamedBytes,
        },
        want,
        `${fixture} in ${parts.length} chunks`,
      );
    }
  }
});

Deno.test("usage scan: text with escaped quotes, backslashes and accents is measured as sent", () => {
  const pieces = ['Ele disse \\"olá\\"', " e saiu\\\\", " ação"];
  const body = pieces.map((p) => `data: {"choices":[{"delta":{"content":"${p}"}}]}\r\n\r\n`)
    .join("");
  const scanner = scan(cut(encoder.encode(body), 5, 9));
  assert.equal(scanner.streamedBytes, encoder.encode(pieces.join("")).length);
  assert.equal(scanner.outputTokens, null);
});

Deno.test("usage scan: a Responses stream counts its deltas, stopped or not, and its text once", () => {
  const events = [
    { type: "response.created", response: { id: "r1", text: { format: { type: "text" } } } },
    { type: "response.content_part.added", part: { type: "output_text", text: "" } },
    { type: "response.output_text.delta", delta: "Olá, " },
    { type: "response.output_text.delta", delta: "mundo" },
    { type: "response.output_text.done", text: "Olá, mundo" },
  ];
  const body = (list: typeof events) =>
    encoder.encode(list.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
  const sent = encoder.encode("Olá, mundo").length;
  // Stopped before the text was done: only the deltas tell what was streamed.
  assert.equal(scan([body(events.slice(0, 4))]).streamedBytes, sent);
  assert.equal(scan([body(events)]).streamedBytes, sent);
});

Deno.test('usage scan: `"usage":null` lines are passed over, the last usage wins', () => {
  const body = [
    `data: {"choices":[{"delta":{"content":"usage"}}],"usage":null}\n\n`,
    `data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34}}\n\n`,
    "data: [DONE]\n\n",
  ].join("");
  const scanner = scan([encoder.encode(body)]);
  assert.deepEqual([scanner.inputTokens, scanner.outputTokens], [12, 34]);
});

Deno.test("usage scan: an event split over many chunks and a body without a final newline", () => {
  const usage = `data: {"type":"response.completed","response":{"usage":{"input_tokens":5,` +
    `"output_tokens":6},"output":[{"content":[{"text":"${"x".repeat(70_000)}"}]}]}}`;
  const scanner = scan(cut(encoder.encode(usage), 1, 4096));
  assert.deepEqual([scanner.inputTokens, scanner.outputTokens], [5, 6]);
});

Deno.test("usage scan: a line over the cap is skipped, and the lines after it still count", () => {
  const huge = `data: {"usage":{"prompt_tokens":1,"completion_tokens":1},"pad":"${
    "y".repeat(4 * 1024 * 1024)
  }"}\n\n`;
  const after = `data: {"usage":{"prompt_tokens":2,"completion_tokens":3}}\n\n`;
  const scanner = scan([...cut(encoder.encode(huge), 9, 1 << 20), encoder.encode(after)]);
  assert.deepEqual([scanner.inputTokens, scanner.outputTokens], [2, 3]);
});

Deno.test("usage scan: a JSON body is read whole, in any chunks", () => {
  const body = encoder.encode(
    JSON.stringify({
      choices: [{ message: { content: "olá" } }],
      usage: { prompt_tokens: 9, completion_tokens: 4 },
    }),
  );
  const scanner = scan(cut(body, 13, 5), "application/json; charset=utf-8");
  assert.deepEqual([scanner.inputTokens, scanner.outputTokens], [9, 4]);
});

Deno.test("extractUsage reads the three families' usage shapes", () => {
  assert.deepEqual(extractUsage({ usage: { prompt_tokens: 3, completion_tokens: 4 } }), {
    input: 3,
    output: 4,
  });
  assert.deepEqual(
    extractUsage({
      type: "response.completed",
      response: { usage: { input_tokens: 5, output_tokens: 6 } },
    }),
    { input: 5, output: 6 },
  );
  assert.deepEqual(
    extractUsage({
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 8, thoughtsTokenCount: 2 },
    }),
    { input: 7, output: 10 },
  );
  assert.deepEqual(extractUsage({ choices: [], usage: null }), { input: null, output: null });
});
