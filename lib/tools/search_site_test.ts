import assert from "node:assert/strict";
import { convertToModelMessages, type ToolResultPart } from "ai";
import type { Passage, SiteSearch, StoredPassage } from "@/lib/search/types.ts";
import {
  createSearchTool,
  MISSING_INTERNAL_NOTE,
  modelView,
  numberedSources,
  SEARCH_TOOL,
} from "./search_site.ts";
import type { ChatMessage, SearchToolOutput } from "@/lib/protocol/ui_message.ts";

const SECRET = "Only the editorial team reads this.";

function passage(id: string, url: string | null, text: string, n?: number): Passage {
  return {
    ...(n === undefined ? {} : { n }),
    id,
    title: id,
    url,
    lang: "en",
    text,
    score: 1,
    ranks: { bm25: 1, dense: null },
  };
}

/** A search over a fixed list; `passage()` knows the internal one while `known` says so. */
function fakeSearch(opts: { known: boolean }): SiteSearch {
  const internal: StoredPassage = {
    id: "notes#a",
    title: "Notes",
    url: null,
    lang: "en",
    text: SECRET,
  };
  return {
    search: () =>
      Promise.resolve({
        mode: "lexical",
        passages: [
          passage("page#x", "/about#x", "Public text.", 1),
          { ...passage("notes#a", null, SECRET), title: "Notes" },
        ],
      }),
    passage: (id) => (opts.known && id === internal.id ? internal : null),
    status: () => ({ status: "unavailable", error: "not used" }),
  };
}

const CALL = {
  toolCallId: "c1",
  messages: [],
  abortSignal: new AbortController().signal,
  context: {},
};

async function run(search: SiteSearch) {
  const t = createSearchTool(search, { origin: "https://site.test" });
  const output = await t.execute!({ query: "notes" }, CALL) as SearchToolOutput;
  // The turn's sources are read from the output (lib/chat/turn/relay.ts).
  return { t, output, sources: numberedSources(output) };
}

Deno.test("search tool: an internal passage leaves as a reference, without text or URL", async () => {
  const { output, sources } = await run(fakeSearch({ known: true }));
  assert.deepEqual(output, {
    mode: "lexical",
    passages: [
      { n: 1, title: "page#x", url: "https://site.test/about#x", text: "Public text.", score: 1 },
      { ref: "notes#a", title: "Notes", internal: true },
    ],
  });
  assert.deepEqual(sources, [{ n: 1, url: "https://site.test/about#x", title: "page#x" }]);
});

Deno.test("search tool: the model's view resolves the reference to the indexed text", async () => {
  const { t, output } = await run(fakeSearch({ known: true }));
  const view = await t.toModelOutput!({ toolCallId: "c1", input: { query: "notes" }, output });
  assert.deepEqual(view, {
    type: "json",
    value: {
      mode: "lexical",
      passages: [
        { n: 1, title: "page#x", url: "https://site.test/about#x", text: "Public text.", score: 1 },
        { title: "Notes", text: SECRET, internal: true },
      ],
    },
  });
});

Deno.test("search tool: a reference the index no longer has becomes a note", () => {
  const value = modelView({
    mode: "lexical",
    passages: [{ ref: "notes#gone", title: "Notes", internal: true }],
  }, fakeSearch({ known: false }));
  assert.deepEqual(value, {
    mode: "lexical",
    passages: [{ title: "Notes", internal: true, note: MISSING_INTERNAL_NOTE }],
  });
  // Outputs saved before references existed, or of any other shape, pass through.
  const legacy = {
    mode: "lexical",
    passages: [{ title: "Notes", url: null, text: "t", score: 1 }],
  };
  assert.deepEqual(modelView(legacy, fakeSearch({ known: false })), legacy);
  assert.equal(modelView("plain", fakeSearch({ known: false })), "plain");
});

Deno.test("search tool: saved history converted with the tools gives the model the text", async () => {
  const { t, output } = await run(fakeSearch({ known: true }));
  const history: ChatMessage[] = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "notes?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [{
        type: `tool-${SEARCH_TOOL}`,
        toolCallId: "c1",
        state: "output-available",
        input: { query: "notes" },
        output: JSON.parse(JSON.stringify(output)),
      }, { type: "text", text: "Done." }],
    },
  ];
  const saved = JSON.stringify(history);
  assert.ok(!saved.includes(SECRET), "what KV keeps has no internal text");
  const messages = await convertToModelMessages(history, { tools: { [SEARCH_TOOL]: t } });
  const result =
    messages.flatMap((m) =>
      m.role === "tool"
        ? m.content.filter((p): p is ToolResultPart => p.type === "tool-result")
        : []
    )[0];
  assert.ok(JSON.stringify(result.output).includes(SECRET));
});

Deno.test("search_site: a question the search translated says so in the output and the model's view", async () => {
  const translated: SiteSearch = {
    ...fakeSearch({ known: false }),
    search: () =>
      Promise.resolve({
        mode: "lexical",
        passages: [passage("page#x", "/about#x", "Public text.", 1)],
        translatedFrom: "pt",
      }),
  };
  const { output } = await run(translated);
  assert.equal(output.translatedFrom, "pt");
  const view = modelView(output, translated) as { translatedFrom?: string };
  assert.equal(view.translatedFrom, "pt");
  // A search in the question's own language adds nothing.
  assert.equal((await run(fakeSearch({ known: false }))).output.translatedFrom, undefined);
});

Deno.test("search tool: an FAQ entry sharing the query's words, a section named by most, are related", async () => {
  const entry = (id: string, question: string, n: number): Passage => ({
    ...passage(id, `/faq#${id}`, "Texto da resposta.", n),
    title: `Perguntas frequentes › ${question}`,
  });
  const search: SiteSearch = {
    search: () =>
      Promise.resolve({
        mode: "lexical",
        passages: [
          entry("conta", "Preciso criar uma conta?", 1),
          entry("apagar", "Como apago o cookie de visitante?", 2),
          // Found by its answer's words: its question shares none of the visitor's.
          entry("artefato", "O que é um artefato?", 3),
          // A section whose heading names the cookie, a word of several in the question.
          {
            ...passage("dados", "/dados#cookie", "Texto.", 4),
            title: "Seus dados › O cookie",
            heading: 0.4,
          },
          // A section whose heading holds most of the question's weight.
          {
            ...passage("guarda", "/dados#guarda", "Texto.", 5),
            title: "Seus dados › O que o cookie guarda",
            heading: 0.8,
          },
        ],
      }),
    passage: () => null,
    status: () => ({ status: "unavailable", error: "not used" }),
  };
  const t = createSearchTool(search, { origin: "https://site.test" });
  const input = { query: "O que o cookie guarda sobre mim?" };
  const output = await t.execute!(input, CALL) as SearchToolOutput;
  const marked = output.passages.map((p) => "relatedQuestion" in p && p.relatedQuestion === true);
  assert.deepEqual(marked, [false, true, false, false, true]);
  // The model is shown the passages, not what the page offers.
  const view = await t.toModelOutput!({ toolCallId: "c1", input, output });
  assert.doesNotMatch(JSON.stringify(view), /relatedQuestion/);
});

Deno.test("search tool: the related entries ranked past the passages shown go in `more` only", async () => {
  const entry = (id: string, question: string): Passage => ({
    ...passage(id, `/faq#${id}`, "Texto da resposta.", 1),
    title: `Perguntas frequentes › ${question}`,
    match: 0.7,
  });
  let asked = 0;
  const search: SiteSearch = {
    search: (_query, options) => {
      asked = options?.k ?? 0;
      return Promise.resolve({
        mode: "lexical",
        passages: [
          entry("conta", "Preciso criar uma conta?"),
          entry("apagar", "Como apago o cookie?"),
          entry("artefato", "O que é um artefato?"),
          { ...entry("nota", "Guardamos o cookie?"), url: null },
        ],
      });
    },
    passage: () => null,
    status: () => ({ status: "unavailable", error: "not used" }),
  };
  const t = createSearchTool(search, { origin: "https://site.test", k: 1 });
  const input = { query: "O que o cookie guarda?" };
  const output = await t.execute!(input, CALL) as SearchToolOutput;
  assert.ok(asked > 1, "the search reads past the passages shown");
  assert.deepEqual(output.passages.map((p) => p.title), [
    "Perguntas frequentes › Preciso criar uma conta?",
  ]);
  assert.deepEqual(output.more, [
    {
      title: "Perguntas frequentes › Como apago o cookie?",
      url: "https://site.test/faq#apagar",
      match: 0.7,
    },
  ]);
  assert.deepEqual(numberedSources(output).map((s) => s.n), [1], "no source for them");
  const view = await t.toModelOutput!({ toolCallId: "c1", input, output });
  assert.doesNotMatch(JSON.stringify(view), /apagar|"more"/);
});
