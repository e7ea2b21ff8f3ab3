/**
 * The whole tool loop with `streamText` from `ai`: the offline model calls a real
 * `search_site` tool over an in-memory passage list and answers from its result;
 * a scripted model that always calls a tool is stopped by the step bound.
 */
import assert from "node:assert/strict";
import { isStepCount, streamText, tool } from "ai";
import { z } from "zod";
import { createLocalModel } from "./local_model.ts";
import { createScriptedModel } from "./testing.ts";
import { createModelRegistry } from "./registry.ts";
import { contentTerms } from "./extractive.ts";

interface FakePassage {
  title: string;
  url: string | null;
  text: string;
}

const CORPUS: FakePassage[] = [
  {
    title: "Sobre › Quem sou",
    url: "https://example.org/sobre#quem-sou",
    text:
      "Sou a Marta Reis e trabalho como designer de interação em Coimbra. Desenho produtos digitais acessíveis há doze anos.",
  },
  {
    title: "Notas internas",
    url: null,
    text: "A Marta Reis prefere ser contactada às terças-feiras.",
  },
  {
    title: "About › Work",
    url: "https://example.org/en/about#work",
    text:
      "Marta Reis designs accessible digital products. She teaches interaction design at the University of Coimbra.",
  },
  {
    title: "Contacto",
    url: "https://example.org/contacto",
    text: "Para falar com a Marta, use o formulário de contacto.",
  },
];

/** A tiny lexical search over CORPUS, numbering only passages with a public URL. */
function fakeSearch(query: string) {
  const terms = contentTerms(query);
  const scored = CORPUS.map((p) => {
    const passageTerms = contentTerms(`${p.title} ${p.text}`);
    let score = 0;
    for (const t of terms) if (passageTerms.has(t)) score++;
    return { ...p, score };
  }).filter((p) => p.score > 0).sort((a, b) => b.score - a.score).slice(0, 3);
  let n = 0;
  return {
    mode: "lexical" as const,
    passages: scored.map((p) => (p.url === null ? p : { n: ++n, ...p })),
  };
}

function searchTool(queries: string[]) {
  return tool({
    description: "Search the site's content",
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => {
      queries.push(query);
      return fakeSearch(query);
    },
  });
}

Deno.test("tool loop: the offline model searches, then answers with citations (pt)", async () => {
  const queries: string[] = [];
  const result = streamText({
    model: createLocalModel(),
    instructions: "You are the site assistant.",
    prompt: "Onde trabalha a Marta Reis?",
    tools: { search_site: searchTool(queries) },
    stopWhen: isStepCount(5),
  });
  const types: string[] = [];
  for await (const part of result.stream) types.push(part.type);
  const steps = await result.steps;
  assert.equal(steps.length, 2);
  assert.deepEqual(queries, ["Onde trabalha a Marta Reis?"]);
  assert.equal(steps[0].finishReason, "tool-calls");
  assert.equal(steps[1].finishReason, "stop");
  assert.ok(types.includes("tool-call") && types.includes("tool-result"));
  const text = await result.text;
  assert.match(text, /^“/);
  assert.match(text, /\[1\]/);
  assert.ok(!/\[[3-9]\]/.test(text), text);
  const usage = await result.usage;
  assert.ok((usage.outputTokens ?? 0) > 0);
});

Deno.test("tool loop: an English question gets an English answer; uncovered gets a plain no", async () => {
  const queries: string[] = [];
  const en = streamText({
    model: createLocalModel(),
    prompt: "Where does Marta teach interaction design?",
    tools: { search_site: searchTool(queries) },
    stopWhen: isStepCount(5),
  });
  const enText = await en.text;
  assert.match(enText, /^“.*University of Coimbra\.” \[\d\]/);

  const none = streamText({
    model: createLocalModel(),
    prompt: "What is the boiling point of mercury?",
    tools: { search_site: searchTool(queries) },
    stopWhen: isStepCount(5),
  });
  assert.match(await none.text, /The site does not cover that/);
  assert.equal((await none.steps).length, 2);
});

Deno.test("tool loop: the registry's default without keys is the offline model", async () => {
  const registry = createModelRegistry({ env: {} });
  await registry.ready();
  assert.equal(registry.defaultModelId(), "local");
  const result = streamText({
    model: registry.get(registry.defaultModelId()),
    prompt: "Como posso falar com a Marta?",
    tools: { search_site: searchTool([]) },
    stopWhen: isStepCount(3),
  });
  assert.match(await result.text, /formulário de contacto\.” \[\d\]/);
});

Deno.test("tool loop: aborting the turn stops the offline model mid-answer", async () => {
  const controller = new AbortController();
  const result = streamText({
    model: createLocalModel({ delayMs: 15 }),
    prompt: "Onde trabalha a Marta Reis?",
    tools: { search_site: searchTool([]) },
    stopWhen: isStepCount(5),
    abortSignal: controller.signal,
  });
  let deltas = 0;
  const types: string[] = [];
  for await (const part of result.stream) {
    types.push(part.type);
    if (part.type === "text-delta" && ++deltas === 2) controller.abort();
  }
  assert.equal(deltas, 2);
  assert.ok(types.includes("abort"), types.join(","));
});

Deno.test("tool loop: a model that always calls a tool is stopped by the step bound", async () => {
  const model = createScriptedModel([
    { type: "tool-call", toolName: "search_site", input: { query: "again" } },
  ]);
  const queries: string[] = [];
  const result = streamText({
    model,
    prompt: "loop forever",
    tools: { search_site: searchTool(queries) },
    stopWhen: isStepCount(3),
  });
  await result.consumeStream();
  assert.equal((await result.steps).length, 3);
  assert.equal(model.calls.length, 3);
  assert.equal(queries.length, 3);
  // The last call saw the two earlier tool results in its prompt.
  const toolMessages = model.calls[2].prompt.filter((m) => m.role === "tool");
  assert.equal(toolMessages.length, 2);
});

Deno.test("createScriptedModel plays steps in order, then repeats the last", async () => {
  const model = createScriptedModel([
    { type: "tool-call", toolName: "search_site", input: { query: "q" } },
    { type: "text", text: "done" },
  ]);
  const result = streamText({
    model,
    prompt: "hi",
    tools: { search_site: searchTool([]) },
    stopWhen: isStepCount(5),
  });
  assert.equal(await result.text, "done");
  assert.equal(model.calls.length, 2);
  const again = await model.doGenerate({ prompt: [] });
  assert.deepEqual(again.content, [{ type: "text", text: "done" }]);
  assert.throws(() => createScriptedModel([]));
});
