/**
 * `create_artifact` over HTTP: versions counted across turns from the saved history, a
 * refused input comes back to the model as a clear message, the saved chat renders the
 * card on /c/:id, and the offline model draws how the assistant works from the corpus'
 * headings, in Portuguese and English.
 */
import assert from "node:assert/strict";
import type { UIMessageChunk } from "ai";
import { createScriptedModel, scriptedRegistry } from "@/lib/models/testing.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

async function turn(server: TestServer, jar: CookieJar, id: string, text: string) {
  const res = await postChat(server.url, {
    id,
    trigger: "submit-message",
    message: userMessage(text),
  }, { jar });
  assert.equal(res.status, 200);
  return (await readSse(res)).chunks;
}

/** The outputs of `tool`'s calls (the turn's prefetched search is a tool part too). */
function outputs(chunks: UIMessageChunk[], tool = "create_artifact") {
  const ids = new Set(
    chunks.flatMap((c) =>
      c.type === "tool-input-available" && c.toolName === tool ? [c.toolCallId] : []
    ),
  );
  return chunks.flatMap((c) =>
    c.type === "tool-output-available" && ids.has(c.toolCallId)
      ? [c.output as Record<string, unknown>]
      : []
  );
}

Deno.test("create_artifact: the same artifactId makes versions 1, 2, 3 across turns; a refusal is a clear message", async () => {
  const big = "<p>" + "x".repeat(300 * 1024) + "</p>";
  const call = (content: string) => ({
    type: "tool-call" as const,
    toolName: "create_artifact",
    input: { artifactId: "demo", title: "Demo", kind: "html", content },
  });
  const model = createScriptedModel([
    call("<p>1</p>"),
    { type: "text", text: "Um." },
    call("<p>2</p>"),
    { type: "text", text: "Dois." },
    call(big),
    { type: "text", text: "Grande demais." },
    call("<p>3</p>"),
    { type: "text", text: "Três." },
  ]);
  const server = await startTestServer({
    config: testConfig(),
    services: { models: scriptedRegistry(model) },
  });
  const jar = new CookieJar();
  const id = newChatId();
  try {
    const seen = [];
    for (const text of ["um", "dois", "grande", "três"]) {
      seen.push(...outputs(await turn(server, jar, id, text)));
    }
    assert.deepEqual(seen.map((o) => o.version ?? "refused"), [1, 2, "refused", 3]);
    assert.equal(
      seen[2].error,
      "Artifact not created: content is 300.0 KiB; the limit is 256.0 KiB. Make it smaller (less data, no embedded images) and call create_artifact again.",
    );
    // The model read the refusal, word for word, in its next call.
    const after = JSON.stringify(model.calls[5].prompt);
    assert.match(after, /the limit is 256\.0 KiB/);
    const page = await (await jar.fetch(`${server.url}/c/${id}`)).text();
    assert.equal(page.match(/data-artifact-open="demo"/g)?.length, 3);
    assert.match(page, /data-artifact-version="3"/);
  } finally {
    await server.close();
  }
});

for (
  const [lang, text, heading] of [
    ["pt", "Desenhe um diagrama de como o assistente funciona", "Como funciona o assistente"],
    ["en", "Draw a diagram of how the assistant works", "How the assistant works"],
  ] as const
) {
  Deno.test(`offline model (${lang}): a diagram of how the assistant works is an SVG built from the headings it found`, async () => {
    const server = await startTestServer({ config: testConfig() });
    try {
      const chunks = await turn(server, new CookieJar(), newChatId(), text);
      const inputs = chunks.flatMap((c) => c.type === "tool-input-available" ? [c] : []);
      // The prefetch may search the visitor's words first; the diagram searches its own query.
      assert.deepEqual(inputs.map((c) => c.toolName).slice(-2), ["search_site", "create_artifact"]);
      const search = outputs(chunks, "search_site").at(-1) as {
        passages: { n?: number; title: string }[];
      };
      const svg = inputs.at(-1)!.input as { kind: string; content: string };
      assert.equal(svg.kind, "svg");
      assert.match(svg.content, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(svg.content, new RegExp(heading));
      // Every box is a heading of a numbered passage the search returned, with its number.
      const numbered = search.passages.filter((p) => p.n !== undefined);
      assert.ok(numbered.length >= 2);
      for (const p of numbered) {
        const last = p.title.split(" › ").at(-1)!.replaceAll("&", "&amp;");
        assert.ok(svg.content.includes(last), `the SVG shows "${last}"`);
        assert.ok(svg.content.includes(`[${p.n}]`));
      }
      const created = outputs(chunks)[0];
      assert.equal(created.version, 1);
      const answer = chunks.flatMap((c) => c.type === "text-delta" ? [c.delta] : []).join("");
      assert.match(answer, lang === "pt" ? /^Pronto: o diagrama/ : /^Done: the diagram/);
      assert.match(answer, /\[\d+\]/);
    } finally {
      await server.close();
    }
  });
}
