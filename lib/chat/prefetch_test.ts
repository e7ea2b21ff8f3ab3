import assert from "node:assert/strict";
import type { ModelMessage, ToolSet } from "ai";
import {
  isDiagramMessage,
  isOwnerMessage,
  MAX_QUERY_CHARS,
  prefetchCall,
  searchQuery,
} from "./prefetch.ts";

// Only the names count here: the engine runs the tools.
const TOOLS = { search_site: {}, sendMessageToOwner: {} } as unknown as ToolSet;
const user = (text: string): ModelMessage & { role: "user" } => ({
  role: "user",
  content: [{ type: "text", text }],
});
const base = { retrieval: "prefetch" as const, continued: false, tools: TOOLS };

Deno.test("prefetch: a new question is searched with its own words, under a provider-safe call id", () => {
  const call = prefetchCall({ ...base, messages: [user("  Quem mantém o site? ")] });
  assert.equal(call?.toolName, "search_site");
  assert.deepEqual(call?.input, { query: "Quem mantém o site?" });
  assert.match(call!.toolCallId, /^call_[a-f0-9]{24}$/);
  const other = prefetchCall({ ...base, messages: [user("Quem mantém o site?")] });
  assert.notEqual(other!.toolCallId, call!.toolCallId);
});

Deno.test("prefetch: none in tool mode, for a continued answer, without text or search tool", () => {
  const messages = [user("Quem mantém o site?")];
  assert.equal(prefetchCall({ ...base, retrieval: "tool", messages }), null);
  assert.equal(prefetchCall({ ...base, continued: true, messages }), null);
  assert.equal(prefetchCall({ ...base, messages: [user("   ")] }), null);
  assert.equal(prefetchCall({ ...base, tools: {}, messages }), null);
  const answered: ModelMessage[] = [...messages, { role: "assistant", content: "Ana." }];
  assert.equal(prefetchCall({ ...base, messages: answered }), null);
});

Deno.test("prefetch: a greeting is left out of the search, and small talk is not searched", () => {
  const call = prefetchCall({ ...base, messages: [user("Oi, bom dia! Quem mantém o site?")] });
  assert.deepEqual(call?.input, { query: "Quem mantém o site?" });
  assert.equal(prefetchCall({ ...base, messages: [user("Oi, tudo certo por aí?")] }), null);
  assert.equal(prefetchCall({ ...base, messages: [user("Thanks a lot!")] }), null);
  // "Who are you?" may be the company's About page: a real model gets the search.
  assert.deepEqual(prefetchCall({ ...base, messages: [user("Who are you?")] })?.input, {
    query: "Who are you?",
  });
});

Deno.test("prefetch: a long question is cut to whole words the tool accepts", () => {
  const long = `${"palavra ".repeat(100)}fim`;
  const query = searchQuery(user(long));
  assert.ok(query.length <= MAX_QUERY_CHARS);
  assert.ok(long.startsWith(query));
  assert.ok(query.endsWith("palavra"));
  const oneWord = "x".repeat(MAX_QUERY_CHARS - 1) + "😀";
  const cut = searchQuery(user(oneWord));
  assert.equal(cut, "x".repeat(MAX_QUERY_CHARS - 1), "never half of a surrogate pair");
});

Deno.test("prefetch: a message for the owner is not searched when the contact tool can take it", () => {
  const request = user("Quero deixar um recado para o dono do site");
  assert.equal(isOwnerMessage([request], TOOLS), true);
  assert.equal(prefetchCall({ ...base, messages: [request] }), null);
  const asked: ModelMessage = {
    role: "assistant",
    content: [{
      type: "text",
      text: "Posso mandar o recado ao dono do site, mas preciso de seu nome e seu email.",
    }],
  };
  assert.equal(isOwnerMessage([request, asked, user("Ana, ana@example.com")], TOOLS), true);
  // Without the contact tool, or for a question about the owner, the search runs.
  const searchOnly = { search_site: {} } as unknown as ToolSet;
  assert.ok(prefetchCall({ ...base, tools: searchOnly, messages: [request] }));
  assert.ok(prefetchCall({ ...base, messages: [user("Quem é o dono do site?")] }));
});

Deno.test("prefetch: a request to draw how the assistant works is not searched when it can be drawn", () => {
  const drawing = { ...TOOLS, create_artifact: {} } as unknown as ToolSet;
  for (
    const text of [
      "Desenhe um diagrama de como o assistente funciona",
      "Draw a diagram of how the assistant works",
    ]
  ) {
    assert.equal(isDiagramMessage(text, drawing), true, text);
    assert.equal(prefetchCall({ ...base, tools: drawing, messages: [user(text)] }), null, text);
    // Without the artifact tool the question is searched as any other.
    assert.ok(prefetchCall({ ...base, messages: [user(text)] }), text);
  }
  assert.ok(
    prefetchCall({ ...base, tools: drawing, messages: [user("Como o assistente funciona?")] }),
    "a question about the assistant is still searched",
  );
});

Deno.test("prefetch: chat spellings are searched as the words they stand for", () => {
  // "pq dá pau qdo altero…?" weighed "pq" and "qdo" as words no page has, and was refused.
  assert.equal(
    searchQuery(user("Oi, pq dá pau qdo altero um x de fora?")),
    "por que dá pau quando altero um x de fora?",
  );
});
