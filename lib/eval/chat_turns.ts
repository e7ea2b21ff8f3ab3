/**
 * Questions asked as a visitor asks them — POST /api/chat on the app's own handler, in
 * process — and what each turn streamed, for the answer evals (scripts/eval_answers.ts,
 * scripts/eval_site_answers.ts).
 */
import {
  foundInOutput,
  type FoundPassage,
  relatedQuestions,
} from "@/lib/text/related_questions.ts";

/** What one turn streamed: the answer, the valid citation count, each numbered source's passage. */
export interface TurnOutcome {
  text: string;
  valid: number;
  /** The passage each source number stands for, as `sourceOf` named it. */
  sources: Map<number, string>;
  /** The passages the turn's searches returned, in their order (the related questions' pool). */
  found: FoundPassageOf[];
}

/** A passage a search returned, with the eval's passage id for it (`sourceOf`). */
export type FoundPassageOf = FoundPassage & { id: string | null };

/** Names the passage a cited URL stands for, or null when it is none of the eval's. */
export type SourceOf = (url: string) => string | null;

/** Reads a turn's SSE body; a turn that streamed an error throws it. */
export function readTurn(raw: string, sourceOf: SourceOf): TurnOutcome {
  let text = "";
  let valid = 0;
  const sources = new Map<number, string>();
  const found: FoundPassageOf[] = [];
  for (const line of raw.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const chunk = JSON.parse(line.slice(6));
    if (chunk.type === "text-delta") text += chunk.delta;
    if (chunk.type === "tool-output-available") found.push(...foundIn(chunk.output, sourceOf));
    const passage = chunk.type === "source-url" ? sourceOf(chunk.url) : null;
    if (passage !== null) sources.set(Number(chunk.sourceId), passage);
    if (chunk.type === "error") throw new Error(`The turn failed: ${chunk.errorText}`);
    const citations = chunk.type === "message-metadata" && chunk.messageMetadata?.citations;
    if (citations) valid = citations.valid;
  }
  return { text, valid, sources, found };
}

/** The related questions' pool of a tool output (`foundInOutput`), named by `sourceOf`. */
function foundIn(output: unknown, sourceOf: SourceOf): FoundPassageOf[] {
  return foundInOutput(output).map((p) => ({ ...p, id: p.url ? sourceOf(p.url) : null }));
}

/** The source numbers an answer cites, by its `[N]` markers. */
export function citedNumbers(text: string): Set<number> {
  return new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
}

/** The passages an answer cites, by its `[N]` markers, each once. */
export function citedPassages(text: string, sources: ReadonlyMap<number, string>): string[] {
  const ids = [...citedNumbers(text)].map((n) => sources.get(n));
  return ids.filter((id): id is string => id !== undefined);
}

/**
 * The passages the related questions under an answer ask (lib/text/related_questions.ts),
 * as `sources` names them.
 */
export function offeredPassages(turn: TurnOutcome): string[] {
  const ids = new Map(turn.found.map((p) => [p.url, p.id]));
  return relatedQuestions(turn.found, citedNumbers(turn.text))
    .map((r) => ids.get(r.url))
    .filter((id): id is string => typeof id === "string");
}

/** One visitor (one cookie across questions), each question in a chat of its own. */
export type Asker = (
  i: number,
  text: string,
  headers?: Record<string, string>,
) => Promise<TurnOutcome>;

/** A visitor of `app` asking with `model`; a turn the server refuses throws its status. */
export function chatAsker(
  app: (request: Request) => Promise<Response>,
  model: string,
  sourceOf: SourceOf,
): Asker {
  let cookie = "";
  return async (i, text, headers = {}) => {
    const res = await app(
      new Request("http://127.0.0.1/api/chat", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: JSON.stringify({
          id: `eval_${i}_${crypto.randomUUID().slice(0, 8)}`,
          model,
          message: { id: `q_${i}`, role: "user", parts: [{ type: "text", text }] },
        }),
      }),
    );
    if (res.status !== 200) {
      throw new Error(`POST /api/chat answered ${res.status}: ${await res.text()}`);
    }
    cookie ||= res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    return readTurn(await res.text(), sourceOf);
  };
}
