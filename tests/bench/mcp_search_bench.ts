/**
 * `search_site` over MCP against the chat's own search, on the same server and run: for the
 * same questions, the time from sending an MCP `tools/call` to its answer, and the time from
 * sending POST /api/chat to the `search_site` result in its stream (the turn runs the search
 * before the model: `retrieval: "prefetch"`). The goal is an MCP median within twice the
 * chat's; a benchmark prints it rather than a test asserting it, since timings on a shared
 * machine flake.
 *
 *   deno run -A tests/bench/mcp_search_bench.ts
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { newChatId, postChat, testConfig, userMessage } from "../support/chat_client.ts";
import { mcpClient } from "../support/mcp.ts";

const QUESTIONS = [
  "Como o assistente encontra as respostas?",
  "Quais dados vocês guardam e por quanto tempo?",
  "Como faço para publicar o assistente no meu site?",
  "How does the assistant find its answers?",
  "What data do you keep, and for how long?",
  "O que são artefatos?",
  "Preciso aprovar chamadas de API?",
  "Which models can I use?",
];
const ROUNDS = 4;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds from POST /api/chat to the search result in its stream; reads the rest too. */
async function chatSearchMs(base: string, question: string): Promise<number> {
  const t0 = performance.now();
  const res = await postChat(base, {
    id: newChatId(),
    trigger: "submit-message",
    message: userMessage(question),
  });
  assert.equal(res.status, 200);
  let at = NaN;
  let raw = "";
  for await (const text of res.body!.pipeThrough(new TextDecoderStream())) {
    raw += text;
    if (Number.isNaN(at) && raw.includes('"type":"tool-output-available"')) {
      at = performance.now() - t0;
    }
  }
  assert.ok(!Number.isNaN(at), "the chat ran its search");
  return at;
}

if (import.meta.main) {
  const server = await startTestServer({ config: testConfig() });
  const client = await mcpClient(server.url);
  try {
    // Warm both paths: the index, the chat stack and the MCP modules load once.
    await chatSearchMs(server.url, QUESTIONS[0]);
    await client.callTool({ name: "search_site", arguments: { query: QUESTIONS[0] } });
    const chat: number[] = [];
    const mcp: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const question of QUESTIONS) {
        chat.push(await chatSearchMs(server.url, question));
        const t0 = performance.now();
        const result = await client.callTool({
          name: "search_site",
          arguments: { query: question },
        });
        mcp.push(performance.now() - t0);
        assert.notEqual(result.isError, true);
        const t1 = performance.now();
        await server.services.search.search(question, { k: 5 });
        bare.push(performance.now() - t1);
      }
    }
    const figures = {
      runs: chat.length,
      chatSearchMedianMs: Number(median(chat).toFixed(2)),
      mcpSearchMedianMs: Number(median(mcp).toFixed(2)),
      // For reference: the search alone, in process (neither HTTP nor JSON).
      bareSearchMedianMs: Number(median(bare).toFixed(2)),
    };
    const ratio = figures.mcpSearchMedianMs / figures.chatSearchMedianMs;
    console.log(JSON.stringify({ ...figures, ratio: Number(ratio.toFixed(2)), goal: "≤ 2" }));
  } finally {
    await client.close();
    await server.close();
  }
}
