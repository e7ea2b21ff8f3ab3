/**
 * Internal documents (`url: null` in corpus/manifest.json) never leave the server:
 * not as a static file, not in the chat stream, not in the saved chat, not in the
 * chat page. The model still reads them, this turn and in later turns.
 */
import assert from "node:assert/strict";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { ChatMessage, SearchToolOutput } from "@/lib/protocol/ui_message.ts";
import { createScriptedModel, scriptedRegistry } from "@/lib/models/testing.ts";
import { assetsDir } from "@/lib/islands/assets_dir.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import {
  CookieJar,
  messageText,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

const ROOT = new URL("../../", import.meta.url);
const STATIC = new URL("static/", ROOT);
/** The folders the server serves files from: static/ and the build's assets folder. */
const SERVED = [...new Set([STATIC.href, assetsDir(ROOT).href])].map((href) => new URL(href));
/** A question the search answers with the internal checklist first. */
const QUERY = "lista de verificação antes de publicar";
/** A sentence of that checklist: what must never reach a visitor, and what the model needs. */
const CHECKLIST = "A soma sha256 foi recalculada depois da última edição, e não antes.";

/**
 * Every plain sentence (no markdown, no quotes) of every internal document, as the
 * index stores it: what no response, saved chat or static file may contain.
 */
async function internalSentences(): Promise<string[]> {
  const manifest: Array<{ path: string; url: string | null }> = JSON.parse(
    await Deno.readTextFile(new URL("corpus/manifest.json", ROOT)),
  );
  const out: string[] = [];
  for (const doc of manifest.filter((d) => d.url === null)) {
    const md = await Deno.readTextFile(new URL(`corpus/${doc.path}`, ROOT));
    for (const line of md.split("\n")) {
      if (line.startsWith("#")) continue;
      for (const s of line.replace(/^- /, "").split(/(?<=[.!?])\s+/)) {
        if (s.length >= 40 && !/[*`"\[\]_\\]/.test(s)) out.push(s.trim());
      }
    }
  }
  return out;
}

const SENTENCES = await internalSentences();

/** Asserts that `text` holds no sentence of an internal document. */
function assertNoInternalText(text: string, where: string) {
  const leaked = SENTENCES.filter((s) => text.includes(s));
  assert.deepEqual(leaked, [], `${where} leaks internal text`);
}

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* walk(url);
    else yield url;
  }
}

/** "SSIX": the first bytes of a search index asset (lib/search/asset.ts). */
const isIndex = (bytes: Uint8Array) =>
  bytes[0] === 0x53 && bytes[1] === 0x53 && bytes[2] === 0x49 && bytes[3] === 0x58;

Deno.test("internal docs: the test knows sentences of the internal document", () => {
  assert.ok(SENTENCES.length >= 5, `found ${SENTENCES.length}`);
  assert.ok(SENTENCES.includes(CHECKLIST));
});

Deno.test("internal docs: no file under static/ is the index or holds internal text", async () => {
  let files = 0;
  for (const dir of SERVED) {
    for await (const file of walk(dir)) {
      files++;
      const bytes = await Deno.readFile(file);
      const path = decodeURIComponent(file.pathname);
      assert.ok(!isIndex(bytes), `${path} is a search index`);
      assertNoInternalText(new TextDecoder().decode(bytes), path);
    }
  }
  assert.ok(files > 0);
});

Deno.test("internal docs: the server serves no index, at its old path or any static path", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    for (
      const path of ["/search/index.bin", "/static/search/index.bin", "/build/search/index.bin"]
    ) {
      const res = await fetch(server.url + path);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.equal(res.status, 404, path);
      assert.ok(!isIndex(bytes), path);
    }
    for (const dir of SERVED) {
      for await (const file of walk(dir)) {
        const path = file.pathname.slice(dir.pathname.length - 1);
        const res = await fetch(server.url + path);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.ok(!isIndex(bytes), `${path} serves a search index`);
        assertNoInternalText(new TextDecoder().decode(bytes), path);
      }
    }
    // The index is still there for the server: search works (once its engine has loaded).
    await server.services.search.ready?.();
    assert.equal(server.services.search.status().status, "ok");
  } finally {
    await server.close();
  }
});

/** Sends `text` in chat `id` and reads the whole stream. */
async function ask(server: TestServer, jar: CookieJar, id: string, text: string) {
  const res = await postChat(server.url, {
    id,
    trigger: "submit-message",
    message: userMessage(text),
  }, { jar });
  assert.equal(res.status, 200);
  const sse = await readSse(res);
  assert.ok(sse.done, "the stream ends with [DONE]");
  return sse;
}

const promptText = (call: LanguageModelV4CallOptions) => JSON.stringify(call.prompt);

Deno.test("internal docs: the model reads them; the stream, the saved chat and the page do not", async () => {
  const model = createScriptedModel([
    { type: "tool-call", toolName: "search_site", input: { query: QUERY } },
    { type: "text", text: "Resposta." },
  ]);
  const server = await startTestServer({
    config: testConfig(),
    services: { models: scriptedRegistry(model) },
  });
  const jar = new CookieJar();
  const id = newChatId();
  try {
    const first = await ask(server, jar, id, `Qual é a ${QUERY}?`);
    // The model's second call has the tool result, with the internal text resolved.
    assert.ok(promptText(model.calls[1]).includes(CHECKLIST), "the model reads the checklist");
    assertNoInternalText(first.raw, "the /api/chat stream");
    const output = first.chunks.find((c) => c.type === "tool-output-available");
    assert.ok(output?.type === "tool-output-available");
    const passages = (output.output as SearchToolOutput).passages;
    const refs = passages.filter((p) => p.internal);
    assert.ok(refs.length > 0, "the search found the internal document");
    for (const p of refs) {
      assert.deepEqual(Object.keys(p).sort(), ["internal", "ref", "title"]);
    }

    // A later turn: the history, rebuilt from KV, gives the model the text again.
    await ask(server, jar, id, "E depois?");
    assert.equal(model.calls.length, 3);
    assert.ok(promptText(model.calls[2]).includes(CHECKLIST), "later turns read it too");

    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.equal(saved.length, 4);
    assertNoInternalText(JSON.stringify(saved), "the saved chat");
    const api = await jar.fetch(`${server.url}/api/chats/${id}`);
    assert.equal(api.status, 200);
    assertNoInternalText(await api.text(), `GET /api/chats/${id}`);
    const page = await jar.fetch(`${server.url}/c/${id}`);
    assert.equal(page.status, 200);
    assertNoInternalText(await page.text(), `GET /c/${id}`);
  } finally {
    await server.close();
  }
});

Deno.test("internal docs: the offline model does not quote them to the visitor", async () => {
  const server = await startTestServer({ config: testConfig() });
  const jar = new CookieJar();
  const id = newChatId();
  try {
    const sse = await ask(server, jar, id, `Qual é a ${QUERY}?`);
    assertNoInternalText(sse.raw, "the offline answer");
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    assertNoInternalText(JSON.stringify(saved), "the saved offline chat");
    assert.ok(messageText(saved[1]).length > 0, "it still answers");
  } finally {
    await server.close();
  }
});

Deno.test("internal docs: answers saved before the change are scrubbed on read", async () => {
  const server = await startTestServer({ config: testConfig() });
  try {
    const jar = new CookieJar();
    const id = newChatId();
    await (await postChat(server.url, { id, message: userMessage("Oi") }, { jar })).text();
    const { visitorId } = (await server.services.store.getChat(id))!;
    const secret = "Documento de trabalho dos mantenedores do conteúdo, só para a equipe.";
    const legacy = {
      id: "legacy_answer",
      role: "assistant",
      parts: [{
        type: "tool-search_site",
        toolCallId: "call_legacy",
        state: "output-available",
        input: { query: "fluxo" },
        output: {
          mode: "lexical",
          passages: [{ title: "Notas internas", url: null, text: secret, score: 1 }],
        },
      }],
    } as unknown as ChatMessage;
    await server.services.store.beginTurn({
      chatId: id,
      visitorId,
      replaceFrom: null,
      append: [legacy],
    });
    for (const path of [`/api/chats/${id}`, `/c/${id}`]) {
      const body = await (await jar.fetch(`${server.url}${path}`)).text();
      assert.ok(
        !body.includes("Documento de trabalho dos mantenedores"),
        `${path} leaks the old text`,
      );
      assert.ok(body.includes("Notas internas"), `${path} still names the passage`);
    }
  } finally {
    await server.close();
  }
});
