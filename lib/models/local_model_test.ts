import assert from "node:assert/strict";
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
} from "@ai-sdk/provider";
import { isStepCount, jsonSchema, streamText, tool } from "ai";
import { createLocalModel } from "./local_model.ts";
import { isContactRequest, readContactRequest } from "./local_contact.ts";
import { buildExtractiveAnswer, detectLang } from "./extractive.ts";
import { smallTalkReply } from "./local_small_talk.ts";
import { interfaceLine } from "./interface_lang.ts";

const TOOLS: LanguageModelV4CallOptions["tools"] = [{
  type: "function",
  name: "search_site",
  description: "Search the site",
  inputSchema: { type: "object", properties: { query: { type: "string" } } },
}];

const PASSAGES = {
  mode: "lexical",
  passages: [
    {
      n: 1,
      title: "Sobre a Ana",
      url: "https://example.org/sobre#ana",
      text:
        "A Ana Silva é engenheira de software em Lisboa. Trabalha com sistemas distribuídos desde 2015. Gosta de fotografia.",
      score: 3.2,
    },
    {
      title: "Notas internas",
      url: null,
      text: "A Ana Silva trabalha também como consultora em Lisboa, mas isto não é público.",
      score: 2.9,
    },
    {
      n: 2,
      title: "Projetos",
      url: "https://example.org/projetos",
      text:
        "O projeto Atlas é um motor de busca para arquivos municipais. Foi escrito em Rust e Deno.",
      score: 1.1,
    },
  ],
};

const EN_PASSAGES = {
  mode: "hybrid",
  passages: [
    {
      n: 1,
      title: "How the assistant works",
      url: "https://example.org/en/how#streaming",
      text:
        "The assistant streams every answer as it is produced. It searches the site's curated content before answering. Answers cite their sources with numbers.",
      score: 0.032,
    },
    {
      n: 2,
      title: "Contact",
      url: "https://example.org/en/contact",
      text: "You can leave a message for the owner through the contact form.",
      score: 0.016,
    },
  ],
};

function userPrompt(text: string): LanguageModelV4Prompt {
  return [
    { role: "system", content: "You are the site assistant." },
    { role: "user", content: [{ type: "text", text }] },
  ];
}

function withResult(question: string, result: unknown, wrap = true): LanguageModelV4Prompt {
  return [
    ...userPrompt(question),
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "c1",
        toolName: "search_site",
        input: { query: question },
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "search_site",
        // deno-lint-ignore no-explicit-any
        output: wrap ? { type: "json", value: result as any } : result as any,
      }],
    },
  ];
}

async function collect(
  stream: ReadableStream<LanguageModelV4StreamPart>,
): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function textOf(parts: LanguageModelV4StreamPart[]): string {
  return parts.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");
}

Deno.test("local model: a new question becomes a search_site call", async () => {
  const model = createLocalModel({ generateId: () => "call_1" });
  const { stream } = await model.doStream({
    prompt: userPrompt("Onde trabalha a Ana?"),
    tools: TOOLS,
  });
  const parts = await collect(stream);
  const call = parts.find((p) => p.type === "tool-call");
  assert.ok(call && call.type === "tool-call");
  assert.equal(call.toolName, "search_site");
  assert.equal(call.toolCallId, "call_1");
  assert.deepEqual(JSON.parse(call.input), { query: "Onde trabalha a Ana?" });
  const finish = parts.at(-1);
  assert.ok(finish?.type === "finish");
  assert.equal(finish.finishReason.unified, "tool-calls");
});

Deno.test("local model: answers a Portuguese question in Portuguese with [N] citations", async () => {
  const model = createLocalModel();
  const { stream } = await model.doStream({
    prompt: withResult("Onde trabalha a Ana Silva?", PASSAGES),
    tools: TOOLS,
  });
  const parts = await collect(stream);
  const text = textOf(parts);
  assert.match(text, /^“/, "the answer opens with a quotation of the site");
  assert.match(text, /Lisboa\.” \[1\]/);
  assert.ok(!/\[3\]/.test(text));
  // Small deltas, word by word, framed by text-start / text-end.
  const deltas = parts.filter((p) => p.type === "text-delta");
  assert.ok(deltas.length > 5);
  assert.ok(
    deltas.every((p) => p.type === "text-delta" && p.delta.trim().split(/\s+/).length === 1),
  );
  assert.equal(parts.filter((p) => p.type === "text-start").length, 1);
  assert.equal(parts.filter((p) => p.type === "text-end").length, 1);
  const finish = parts.at(-1);
  assert.ok(finish?.type === "finish");
  assert.equal(finish.finishReason.unified, "stop");
  assert.equal(finish.usage.outputTokens.total, text.split(/\s+/).filter(Boolean).length);
  assert.ok((finish.usage.inputTokens.total ?? 0) > 0);
});

Deno.test("local model: quotes only numbered passages, never an internal one", () => {
  const answer = buildExtractiveAnswer("Onde trabalha a Ana Silva?", PASSAGES.passages);
  // The unnumbered passage is internal: the visitor never reads it, cited or not.
  assert.ok(!answer.includes("consultora"), answer);
  assert.match(answer, /engenheira de software em Lisboa\.” \[1\]/);
  const cited = [...answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  assert.ok(cited.length > 0);
  for (const n of cited) assert.ok([1, 2].includes(n), `cited [${n}]`);
  // Numbered but url-less passages are not quoted either: only internal text answers.
  const noUrl = buildExtractiveAnswer("Onde trabalha a Ana Silva?", [
    { n: 7, title: "x", url: null, text: "A Ana Silva trabalha em Lisboa.", score: 1 },
  ]);
  assert.match(noUrl, /O site não tem informação sobre isso/);
});

Deno.test("local model: a question only an internal passage answers is not covered", async () => {
  const model = createLocalModel();
  // The search tool's model view of an internal passage: title and text, no number, no URL.
  const result = {
    mode: "lexical",
    passages: [
      {
        title: "Notas internas › Fluxo",
        text: "O fluxo editorial tem três etapas.",
        internal: true,
      },
      {
        n: 1,
        title: "Sobre",
        url: "https://example.org/sobre",
        text: "A Ana mora em Lisboa.",
        score: 1,
      },
    ],
  };
  const out = await model.doGenerate({
    prompt: withResult("Como é o fluxo editorial?", result),
    tools: TOOLS,
  });
  const part = out.content[0];
  assert.ok(part.type === "text");
  assert.ok(!part.text.includes("três etapas"), part.text);
  assert.match(part.text, /O site não tem informação sobre isso/);
});

Deno.test("local model: answers an English question in English (unwrapped tool output)", async () => {
  const model = createLocalModel();
  const result = await model.doGenerate({
    prompt: withResult("How does the assistant stream its answers?", EN_PASSAGES, false),
    tools: TOOLS,
  });
  const part = result.content[0];
  assert.ok(part.type === "text");
  assert.match(part.text, /^“/);
  assert.match(part.text, /streams every answer as it is produced\.” \[1\]/);
  assert.equal(result.finishReason.unified, "stop");
});

Deno.test("local model: says plainly when the site does not cover the question", async () => {
  const model = createLocalModel();
  const en = await collect(
    (await model.doStream({
      prompt: withResult("What is the capital of Mongolia?", EN_PASSAGES),
      tools: TOOLS,
    })).stream,
  );
  assert.match(textOf(en), /The site does not cover that/);
  assert.ok(!/\[\d\]/.test(textOf(en)));

  const pt = await collect(
    (await model.doStream({
      prompt: withResult("Qual é a receita de bacalhau?", { mode: "lexical", passages: [] }),
      tools: TOOLS,
    })).stream,
  );
  assert.match(textOf(pt), /O site não tem informação sobre isso/);
});

Deno.test("local model: a question the search translated is answered in its own language", async () => {
  const model = createLocalModel();
  const answer = async (result: unknown) =>
    textOf(
      await collect(
        (await model.doStream({ prompt: withResult("GIL?", result), tools: TOOLS })).stream,
      ),
    );
  // "GIL?" tells no language by itself: the search that read it as Portuguese does.
  const passages = [{
    n: 1,
    title: "What is the GIL?",
    url: "https://example.org/gil",
    text: "The GIL is the global interpreter lock of CPython.",
    score: 1,
    match: 1,
  }];
  assert.match(
    await answer({ mode: "lexical", passages, translatedFrom: "pt" }),
    /^O site trata disso só em inglês/,
  );
  assert.match(await answer({ mode: "lexical", passages }), /^“The GIL is/);
  assert.match(
    await answer({ mode: "lexical", passages: [], translatedFrom: "pt" }),
    /O site não tem informação sobre isso/,
  );
});

Deno.test("local model: a page found through the question's translation is quoted by its translated words", async () => {
  const model = createLocalModel();
  const answer = async (result: unknown) =>
    textOf(
      await collect(
        (await model.doStream({
          prompt: withResult("Can I go back to an older version of a drawing?", result),
          tools: TOOLS,
        })).stream,
      ),
    );
  // A bilingual site whose page on versions is in Portuguese only, ranked first through the
  // translation; an English page that shares "drawing" ranks second.
  const passages = [{
    n: 1,
    title: "Artefatos › Versões de um artefato",
    url: "https://example.org/artefatos#versoes",
    text:
      "Cada pedido de mudança cria uma nova versão do artefato. Você pode voltar a uma versão antiga para comparar. O painel mostra a data de cada uma.",
    score: 1,
    match: 0.8,
  }, {
    n: 2,
    title: "How it works › Drawing",
    url: "https://example.org/en/how#drawing",
    text: "The assistant can draw a diagram when you ask for a drawing of a process.",
    score: 0.6,
    match: 0.6,
  }];
  const translation = {
    from: "en",
    to: "pt",
    words: [["voltar", "retornar"], ["antigo", "velho"], ["versão"], ["desenho", "diagrama"]],
  };
  // The search found an English page too (on drawing): "in Portuguese only" is not known.
  assert.match(
    await answer({ mode: "lexical", passages, translation }),
    /^From the site's pages in Portuguese: “Você pode voltar a uma versão antiga para comparar\.” \[1\]/,
  );
  // Only Portuguese pages found: said so.
  assert.match(
    await answer({ mode: "lexical", passages: passages.slice(0, 1), translation }),
    /^The site covers this in Portuguese only: “Você pode voltar a uma versão antiga para comparar\.” \[1\]/,
  );
  // Read with the question's own words only, the English page's sentence holds one of its four
  // words: from a search that reports no `match` (nothing vouches for the page), too little.
  const unvouched = passages.map(({ match: _, ...p }) => p);
  assert.match(
    await answer({ mode: "lexical", passages: unvouched }),
    /^The site does not cover that/,
  );
  // Each page is read in its own language, whichever the search put first: an English page
  // that shares only "drawing" does not hide the Portuguese sentence that answers. The site has
  // English pages on drawing, so "in Portuguese only" would not be known to be true.
  const englishFirst = [{ ...passages[1], n: 1, score: 1.2 }, { ...passages[0], n: 2, score: 1 }];
  assert.match(
    await answer({ mode: "lexical", passages: englishFirst, translation }),
    /^From the site's pages in Portuguese: “Você pode voltar a uma versão antiga para comparar\.” \[2\]/,
  );
  // An English page that answers is quoted, alone, though the Portuguese one holds more of the
  // translated words: the visitor's language first, and never both in one answer.
  const versions = {
    ...passages[1],
    title: "How it works › Versions",
    text: "Each older version of a drawing stays in the version picker.",
  };
  assert.equal(
    await answer({
      mode: "lexical",
      passages: [{ ...versions, n: 1, score: 1.2 }, { ...passages[0], n: 2, score: 1 }],
      translation,
    }),
    "“Each older version of a drawing stays in the version picker.” [1]",
  );
});

Deno.test("local model: 'Who are you?' the pages do not answer gets what the assistant is", async () => {
  const model = createLocalModel();
  const about = [{
    n: 1,
    title: "About",
    url: "https://example.org/about",
    text: "We are a family bakery in Lisbon.",
    score: 1,
    match: 0.2,
  }];
  // It is searched first (a real model may find the About page); words alone cannot match it.
  const parts = await collect(
    (await model.doStream({
      prompt: withResult("Who are you?", { mode: "lexical", passages: about }),
      tools: TOOLS,
    })).stream,
  );
  assert.equal(textOf(parts), smallTalkReply("who", "en"));
});

Deno.test("local model: a question whose key term the passages lack is not covered", () => {
  const passages = [{
    n: 1,
    title: "Como funciona a busca",
    url: "https://example.org/busca",
    text: "A busca funciona com BM25. O índice funciona sem rede. Tudo funciona offline.",
    score: 1,
  }];
  assert.match(buildExtractiveAnswer("Como funciona o streaming?", passages), /não tem informação/);
  assert.match(
    buildExtractiveAnswer("Como funciona a busca?", passages),
    /^“A busca/,
  );
});

Deno.test("local model: bracketed numbers inside quoted text never read as citations", () => {
  const answer = buildExtractiveAnswer("Como aparecem as citações?", [{
    n: 2,
    title: "Citações",
    url: "https://example.org/citacoes",
    text: "As citações aparecem como [1] ou [7] depois da frase.",
    score: 1,
  }]);
  assert.equal(answer, "“As citações aparecem como (1) ou (7) depois da frase.” [2]");
});

Deno.test("local model: abort mid-stream errors the stream promptly", async () => {
  const model = createLocalModel({ delayMs: 20 });
  const controller = new AbortController();
  const { stream } = await model.doStream({
    prompt: withResult("Onde trabalha a Ana Silva?", PASSAGES),
    tools: TOOLS,
    abortSignal: controller.signal,
  });
  const reader = stream.getReader();
  let deltas = 0;
  while (deltas < 2) {
    const { value } = await reader.read();
    if (value?.type === "text-delta") deltas++;
  }
  const t0 = performance.now();
  controller.abort();
  await assert.rejects(async () => {
    while (!(await reader.read()).done) { /* drain */ }
  }, (error: unknown) => error instanceof DOMException && error.name === "AbortError");
  assert.ok(performance.now() - t0 < 50);
  // An already-aborted signal refuses to start.
  await assert.rejects(async () =>
    await model.doStream({ prompt: userPrompt("oi"), tools: TOOLS, abortSignal: controller.signal })
  );
});

Deno.test("local model: a failed search is reported as such, not as 'not covered'", async () => {
  const result = await createLocalModel().doGenerate({
    prompt: withResult("Onde trabalha a Ana?", {
      mode: "unavailable",
      passages: [],
      note: "The site search is unavailable right now.",
    }),
    tools: TOOLS,
  });
  const part = result.content[0];
  assert.ok(part.type === "text");
  assert.match(part.text, /Não consegui pesquisar o site/);
});

Deno.test("local model: without the search tool it says it can only quote the site", async () => {
  const result = await createLocalModel().doGenerate({ prompt: userPrompt("Who is Ana?") });
  const part = result.content[0];
  assert.ok(part.type === "text");
  assert.match(part.text, /only answers by quoting the site/);
});

Deno.test("detectLang tells Portuguese from English", () => {
  assert.equal(detectLang("Onde trabalha a Ana?"), "pt");
  assert.equal(detectLang("Quais são os projetos?"), "pt");
  assert.equal(detectLang("O que é o Atlas?"), "pt");
  assert.equal(detectLang("What projects does she have?"), "en");
  assert.equal(detectLang("Where is the contact form?"), "en");
  // A bare name holds no evidence: the fallback (the site's first language) decides.
  assert.equal(detectLang("Atlas"), "pt");
  assert.equal(detectLang("Atlas", "en"), "en");
  // Short questions full of product names, without accents or the common function words.
  assert.equal(detectLang("Posso usar Python num produto comercial sem pagar nada?"), "pt");
  assert.equal(detectLang("Dá pra desinstalar o Python do meu PC?"), "pt");
  assert.equal(detectLang("tupla vs lista?"), "pt");
  assert.equal(detectLang("How do I loop over a list backwards?"), "en");
  assert.equal(detectLang("Fastest way to join lots of strings?"), "en");
});

Deno.test("a page that links to a .com address is not read as Portuguese", () => {
  // The URL's "com" counted as the Portuguese word: this English answer on an English site
  // began "From the site's pages in Portuguese:".
  const answer = buildExtractiveAnswer("How do I access the serial port?", [{
    n: 1,
    title: "How do I access the serial port (RS232)?",
    url: "/serial",
    text: "For Win32, OSX, Linux, BSD, Jython, IronPython: pyserial For Unix, see a Usenet " +
      "post by Mitch Chapman: https://groups.google.com/groups?selm=34A04430.CF9@ohioee.com",
    score: 3,
  }]);
  assert.match(answer, /^“For Win32/);
  assert.equal(detectLang("Veja o guia em https://docs.example.com/en/guide"), "pt");
});

Deno.test("a sub-heading inside a passage is never quoted as an answer", () => {
  const answer = buildExtractiveAnswer("Onde os dados ficam guardados?", [{
    n: 1,
    title: "Seus dados",
    url: "/sobre/seus-dados",
    text:
      "Onde os dados ficam\n\nTudo é armazenado no Deno KV, o banco de dados do Deno, onde os dados ficam guardados.",
    score: 3,
  }]);
  assert.match(answer, /Tudo é armazenado no Deno KV/);
  assert.doesNotMatch(answer, /Onde os dados ficam\./);
});

const CONTACT_TOOLS: LanguageModelV4CallOptions["tools"] = [
  ...TOOLS!,
  {
    type: "function",
    name: "sendMessageToOwner",
    description: "Send a message from the visitor to the site owner",
    inputSchema: { type: "object", properties: { body: { type: "object" } } },
  },
];

async function planOf(prompt: LanguageModelV4Prompt, tools = CONTACT_TOOLS) {
  const model = createLocalModel({ generateId: () => "call_c" });
  const parts = await collect((await model.doStream({ prompt, tools })).stream);
  const call = parts.find((p) => p.type === "tool-call");
  return {
    call: call?.type === "tool-call"
      ? { toolName: call.toolName, input: JSON.parse(call.input) }
      : null,
    text: textOf(parts),
  };
}

Deno.test("local model: a request to message the owner becomes the contact call", async () => {
  const cases: [string, { name: string; email: string; message: string }][] = [
    [
      "manda um recado pro dono do site dizendo que adorei o site, meu nome é Ana e meu email é ana@example.com",
      { name: "Ana", email: "ana@example.com", message: "Adorei o site" },
    ],
    [
      "Leave a message for the site owner saying I love the site. My name is Ana Souza, ana.souza@example.com",
      { name: "Ana Souza", email: "ana.souza@example.com", message: "I love the site" },
    ],
    [
      "Diga ao dono do site que quero contratar um projeto. Me chamo Bruno, email bruno@exemplo.com.br",
      { name: "Bruno", email: "bruno@exemplo.com.br", message: "Quero contratar um projeto" },
    ],
    [
      'Please send the owner a note: "Typo on the about page". I\'m Carla (carla@example.org)',
      { name: "Carla", email: "carla@example.org", message: "Typo on the about page" },
    ],
  ];
  for (const [question, body] of cases) {
    const { call, text } = await planOf(userPrompt(question));
    assert.deepEqual(call, { toolName: "sendMessageToOwner", input: { body } }, question);
    assert.equal(text, "");
  }
});

Deno.test("local model: a contact request without name or email asks for them, in the visitor's language", async () => {
  const pt = await planOf(userPrompt("manda um recado pro dono do site dizendo que adorei o site"));
  assert.equal(pt.call, null);
  assert.equal(
    pt.text,
    "Posso mandar o recado ao dono do site, mas preciso de seu nome e seu email.",
  );
  const en = await planOf(
    userPrompt("Leave a message for the site owner saying thanks. My name is Ana."),
  );
  assert.equal(en.call, null);
  assert.equal(
    en.text,
    "I can send your message to the site owner, but I need your email address.",
  );
  const nothing = await planOf(userPrompt("I want to send a message to the owner"));
  assert.equal(
    nothing.text,
    "I can send your message to the site owner, but I need your name, your email address and what you want to say.",
  );
});

Deno.test("local model: the details given after its question complete the contact call", async () => {
  const first = "manda um recado pro dono do site dizendo que adorei o site";
  const asked = "Posso mandar o recado ao dono do site, mas preciso de seu nome e seu email.";
  const { call } = await planOf([
    ...userPrompt(first),
    { role: "assistant", content: [{ type: "text", text: asked }] },
    { role: "user", content: [{ type: "text", text: "Ana, ana@example.com" }] },
  ]);
  assert.deepEqual(call, {
    toolName: "sendMessageToOwner",
    input: { body: { name: "Ana", email: "ana@example.com", message: "Adorei o site" } },
  });
});

Deno.test("local model: a contact request the turn already searched for is still the contact call", async () => {
  // Retrieval "prefetch": the turn ran search_site on the question before this call.
  const request =
    "manda um recado pro dono do site dizendo que adorei o site, meu nome é Ana e meu email é ana@example.com";
  const { call } = await planOf(withResult(request, PASSAGES));
  assert.deepEqual(call, {
    toolName: "sendMessageToOwner",
    input: { body: { name: "Ana", email: "ana@example.com", message: "Adorei o site" } },
  });
  // A question about the site, searched the same way, is answered from the passages.
  const { call: none, text } = await planOf(withResult("Quem é o dono do site?", PASSAGES));
  assert.equal(none, null);
  assert.ok(text.length > 0);
});

Deno.test("local model: other questions still search, and without the contact tool nothing changes", async () => {
  for (const question of ["Quem é o dono do site?", "Can you tell me who the owner is?"]) {
    assert.equal((await planOf(userPrompt(question))).call?.toolName, "search_site", question);
  }
  const request = "manda um recado pro dono dizendo oi, meu nome é Ana, ana@example.com";
  assert.equal((await planOf(userPrompt(request), TOOLS)).call?.toolName, "search_site");
});

function afterContact(question: string, output: unknown): LanguageModelV4Prompt {
  return [
    ...userPrompt(question),
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "c1",
        toolName: "sendMessageToOwner",
        input: { body: {} },
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "sendMessageToOwner",
        output: output as LanguageModelV4ToolResultOutput,
      }],
    },
  ];
}

Deno.test("local model: after the contact call it says in one sentence whether it was sent", async () => {
  const pt =
    "manda um recado pro dono do site dizendo que adorei o site, meu nome é Ana e meu email é ana@example.com";
  const en = "Leave a message for the site owner saying hi. My name is Ana, ana@example.com";
  const cases: [string, unknown, string][] = [
    [
      pt,
      { type: "json", value: { data: { id: "m1" } } },
      "Recado enviado: o dono do site vai lê-lo e responder no seu email.",
    ],
    [
      en,
      { type: "json", value: { data: { id: "m1" } } },
      "Message sent: the site owner will read it and answer by email.",
    ],
    [
      pt,
      {
        type: "json",
        value: { error: { status: 429, message: "Too many messages. Please wait a moment." } },
      },
      "O recado não foi enviado: Too many messages. Please wait a moment.",
    ],
    [
      en,
      { type: "error-text", value: "Network error: connection refused" },
      "The message was not sent: Network error: connection refused.",
    ],
    [
      pt,
      { type: "execution-denied", reason: "mudei de ideia" },
      "O recado não foi enviado, porque você recusou (mudei de ideia).",
    ],
    [en, { type: "execution-denied" }, "The message was not sent, because you declined."],
  ];
  for (const [question, output, expected] of cases) {
    const { call, text } = await planOf(afterContact(question, output));
    assert.equal(call, null);
    assert.equal(text, expected);
  }
});

Deno.test("local model: streamText runs the contact call it proposes and then answers", async () => {
  const received: unknown[] = [];
  const result = streamText({
    model: createLocalModel(),
    prompt:
      "manda um recado pro dono do site dizendo que adorei o site, meu nome é Ana e meu email é ana@example.com",
    tools: {
      search_site: tool({
        inputSchema: jsonSchema({ type: "object", properties: { query: { type: "string" } } }),
        execute: () => ({ mode: "lexical", passages: [] }),
      }),
      sendMessageToOwner: tool({
        inputSchema: jsonSchema<{ body: unknown }>({
          type: "object",
          properties: { body: { type: "object" } },
          required: ["body"],
        }),
        execute: ({ body }) => {
          received.push(body);
          return { data: { id: "m1" } };
        },
      }),
    },
    stopWhen: isStepCount(3),
  });
  assert.equal(
    await result.text,
    "Recado enviado: o dono do site vai lê-lo e responder no seu email.",
  );
  assert.deepEqual(received, [{ name: "Ana", email: "ana@example.com", message: "Adorei o site" }]);
});

Deno.test("local model: reading a contact request is linear on 256 KiB of adversarial text", () => {
  const n = 256 * 1024;
  const inputs = [
    "dizendo que x" + " ".repeat(n) + "x",
    "dizendo que " + " ,".repeat(n / 2) + "x",
    "@".repeat(n),
    "a@".repeat(n / 2),
    "a".repeat(n) + "@" + "b".repeat(n) + ".".repeat(n),
    "Meu nome é " + "Ana ".repeat(n / 4),
    "dono que ".repeat(n / 9),
    '"' + "a,".repeat(n / 2),
  ];
  for (const text of inputs) {
    const start = performance.now();
    readContactRequest(text);
    isContactRequest(text);
    // Linear passes take a few ms; the quadratic trim of the first input took over a minute.
    const ms = performance.now() - start;
    assert.ok(ms < 1000, `${JSON.stringify(text.slice(0, 16))}: ${Math.round(ms)} ms`);
  }
});

Deno.test("the offline answer quotes the answering sentence first and stays short", () => {
  const answer = buildExtractiveAnswer("Quando foi fundada a empresa Atlas?", [
    {
      n: 1,
      title: "Sobre a Atlas",
      url: "/sobre",
      text: "A empresa Atlas faz mapas. A empresa Atlas tem escritórios no Porto e em Lisboa. " +
        "A empresa Atlas foi fundada em 1998. A empresa Atlas tem 40 pessoas.",
      score: 2,
    },
    {
      n: 2,
      title: "Equipa",
      url: "/equipa",
      text: "A equipa da empresa Atlas foi fundada por duas geógrafas. Gostam de café.",
      score: 1,
    },
  ]);
  // The sentence with the date answers "quando"; it comes first, and the rest that only
  // repeats the question's words stays out.
  assert.match(answer, /^“A empresa Atlas foi fundada em 1998\.” \[1\]/);
  assert.ok(answer.split(/\s+/).length <= 25, answer);
  assert.doesNotMatch(answer, /faz mapas|escritórios/);
});

Deno.test("a FAQ entry whose question is only in its heading answers that question", () => {
  const faq = {
    n: 1,
    title: "Perguntas frequentes › Outras pessoas podem ver as minhas conversas?",
    url: "/sobre/faq#outras",
    text: "Não pela interface nem pela API: cada visitante só enxerga os próprios chats.",
    score: 7,
  };
  const other = {
    n: 2,
    title: "Artefatos",
    url: "/sobre/artefatos",
    text: "As versões anteriores continuam guardadas junto com a conversa.",
    score: 3,
  };
  const answer = buildExtractiveAnswer("Quem pode ver minhas conversas?", [faq, other]);
  assert.match(answer, /^“Não pela interface nem pela API.*” \[1\]$/);
});

Deno.test("a why question restated by one sentence also quotes the reason after it", () => {
  const answer = buildExtractiveAnswer(
    "Por que o estágio é a atividade complementar mais procurada?",
    [{
      n: 1,
      title: "Atividades complementares",
      url: "/atividades",
      text:
        "Entre todas as opções que as universidades oferecem aos seus alunos ao longo do curso, " +
        "a atividade complementar mais procurada pelos estudantes de graduação de todas as áreas " +
        "do conhecimento é, de longe, o estágio supervisionado. " +
        "Isso porque o estágio une a prática profissional remunerada à formação acadêmica e " +
        "costuma abrir as portas do primeiro emprego para quem ainda estuda.",
      score: 3,
    }],
  );
  // The first sentence only restates the question; the reason is in the next one.
  assert.match(answer, /^“Entre todas as opções.*” \[1\] “Isso porque o estágio une.*” \[1\]$/);
});

Deno.test("two sentences the question's words cannot tell apart are both quoted", () => {
  const filler = Array.from({ length: 45 }, (_, i) => `palavra${i}`).join(" ");
  const answer = buildExtractiveAnswer("Qual o horário da biblioteca?", [{
    n: 1,
    title: "Serviços",
    url: "/servicos",
    text: `O horário da biblioteca nos dias úteis vai das 8 às 22 horas. Há ${filler}. ` +
      "O horário da biblioteca aos sábados e domingos fica reduzido ao período da manhã.",
    score: 3,
  }]);
  assert.match(
    answer,
    /dias úteis vai das 8 às 22 horas\.” \[1\] “O horário da biblioteca aos sábados/,
  );
});

Deno.test("a 'what is' question leads with the sentence that defines its subject", () => {
  const answer = buildExtractiveAnswer("O que é o modo offline?", [
    {
      n: 1,
      title: "Conversa",
      url: "/conversa",
      text: "O modo offline aparece no seletor de modelos da conversa, ao lado dos outros.",
      score: 3,
    },
    {
      n: 2,
      title: "Modelos",
      url: "/modelos",
      text: "O modo offline é um modelo que responde citando frases das páginas do site, " +
        "sem chamar nenhum provedor.",
      score: 2,
    },
  ]);
  // The top passage only mentions the subject; the definition comes first even so.
  assert.match(answer, /^“O modo offline é um modelo que responde citando frases.*” \[2\]/);
});

Deno.test("a close runner-up from another passage is quoted after a best one that restates", () => {
  const filler = Array.from({ length: 40 }, (_, i) => `palavra${i}`).join(" ");
  const answer = buildExtractiveAnswer("Quem pode apagar uma conversa salva?", [
    {
      n: 1,
      title: "Conversas",
      url: "/conversas",
      text: `Muita gente pergunta se uma conversa salva pode ser apagada. Há ${filler}.`,
      score: 3,
    },
    {
      n: 2,
      title: "Privacidade",
      url: "/privacidade",
      text: "Só o próprio visitante apaga uma conversa salva, pelo menu ao lado do título.",
      score: 2,
    },
  ]);
  assert.match(answer, /^“Muita gente pergunta.*” \[1\] “Só o próprio visitante apaga.*” \[2\]$/);
});

Deno.test("a runner-up that would not answer on its own is not quoted", () => {
  // No digit in the filler: it would read as the year a "quando" question asks for.
  const filler = "texto ".repeat(40).trim();
  const answer = buildExtractiveAnswer(
    "Quando abre a biblioteca do campus norte para visitantes?",
    [{
      n: 1,
      title: "Serviços",
      url: "/servicos",
      text: `A biblioteca do campus fica no prédio principal. Há ${filler}. ` +
        "Em 2020 o norte ganhou uma ciclovia.",
      score: 3,
    }],
  );
  // The year makes the last sentence score close to the best one, but it holds one of the
  // question's five words: quoting it would add words and no answer.
  assert.equal(answer, "“A biblioteca do campus fica no prédio principal.” [1]");
});

Deno.test("local model: a follow-up with no word of either language keeps the conversation's language", async () => {
  const prompt: LanguageModelV4Prompt = [
    { role: "system", content: "You are the site assistant." },
    { role: "user", content: [{ type: "text", text: "How does the assistant cite its sources?" }] },
    { role: "assistant", content: [{ type: "text", text: "“Answers cite their sources.” [1]" }] },
    ...withResult("GIL?", { mode: "unavailable", passages: [] }).slice(1),
  ];
  const result = await createLocalModel().doGenerate({ prompt, tools: TOOLS });
  const part = result.content[0];
  assert.ok(part.type === "text");
  assert.doesNotMatch(part.text, /Não consegui/);
  const weak = { mode: "lexical", passages: [{ ...PASSAGES.passages[0], match: 0.05 }] };
  const refused = await createLocalModel().doGenerate({
    prompt: [...prompt.slice(0, 3), ...withResult("GIL?", weak).slice(1)],
    tools: TOOLS,
  });
  const text = refused.content[0];
  assert.ok(text.type === "text");
  assert.match(text.text, /^The site does not cover that/);
});

Deno.test("a sentence that points back is quoted after the sentence it points to", () => {
  const answer = buildExtractiveAnswer("Quem é considerada a primeira programadora?", [{
    n: 1,
    title: "História",
    url: "/historia",
    text: "Charles Babbage projetou o engenho analítico em 1837. " +
      "Durante sua colaboração, a matemática Ada Lovelace publicou os primeiros programas. " +
      "Por isso, Lovelace é popularmente considerada como a primeira programadora.",
    score: 3,
  }]);
  assert.match(answer, /^“Durante sua colaboração, a matemática Ada Lovelace.*” \[1\] “Por isso/);
  assert.doesNotMatch(answer, /Babbage/);
});

Deno.test("a best sentence that points back brings the one it points to past the pair's room", () => {
  // The Debian Administrator's Handbook: "Esta ferramenta mantém um olho em um diretório…" was
  // quoted alone, without "…é delegada ao comando mini-dinstall" that names the tool: together
  // they run past the 40 words of a plain pair.
  const answer = buildExtractiveAnswer(
    "Como a empresa mantém o repositório apt interno atualizado a cada pacote novo?",
    [{
      n: 1,
      title: "Servidor web",
      url: "/repo",
      text: "Os administradores configuram um servidor web interno para os pacotes. " +
        "A gestão do arquivo é delegada ao programa mini-dinstall, do pacote de mesmo nome. " +
        "Esta ferramenta vigia um diretório de entrada e põe cada pacote novo no repositório " +
        "apt interno da empresa, mantendo-o atualizado com os índices que o apt lê.",
      score: 3,
    }],
  );
  assert.match(answer, /^“A gestão do arquivo é delegada ao programa mini-dinstall.*” \[1\] “Esta/);
});

Deno.test("a next sentence that points back follows the best one past the pair's usual room", () => {
  const answer = buildExtractiveAnswer("O que diz a Tese de Church-Turing?", [{
    n: 1,
    title: "Computabilidade",
    url: "/computabilidade",
    text: "Tais tópicos são abordados no que atualmente chama-se Tese de Church-Turing, uma " +
      "hipótese sobre a natureza de dispositivos mecânicos de cálculo. Essa tese define que " +
      "qualquer cálculo possível pode ser realizado por um algoritmo sendo executado em um " +
      "computador, desde que haja tempo e armazenamento suficiente. Outro assunto começa aqui.",
    score: 3,
  }]);
  assert.match(answer, /“Essa tese define que qualquer cálculo possível/);
});

Deno.test('a next sentence whose first words point back ("A principal razão para isto") follows', () => {
  // The Securing Debian Manual: the reason came second and was left out, because only a
  // sentence that opens with the pointing word counted as going on with the best one.
  const answer = buildExtractiveAnswer("Dá pra usar o Debian unstable num servidor de produção?", [{
    n: 1,
    title: "Evite usar versões instáveis",
    url: "/instaveis",
    text: "Ao menos que você tenha tempo para aplicar patches toda vez que uma falha é " +
      "descoberta, você não deve usar a versão unstable do Debian em servidores de produção. " +
      "A principal razão para isto é que não há atualizações de segurança para a unstable. " +
      "Outro assunto começa aqui e fala de outra coisa bem diferente desta.",
    score: 3,
  }]);
  assert.match(answer, /” \[1\] “A principal razão para isto é que não há atualizações/);
});

Deno.test("a which-command or which-file question leads with the sentence that names one", () => {
  // The Debian Administrator's Handbook: "…qual arquivo eu mexo?" and "what tool…?" were
  // answered by a sentence restating the problem, not the one naming the file or the command.
  const passage = (text: string) => [{ n: 1, title: "Logs", url: "/logs", text, score: 3 }];
  const command = buildExtractiveAnswer(
    "What command finds the process behind an open port?",
    passage(
      "Every open port has a process behind it. Type netstat -tupan to see each open port " +
        "and the process behind it. Other options are in the manual page.",
    ),
  );
  assert.match(command, /^“Type netstat -tupan/);
  const file = buildExtractiveAnswer(
    "Qual arquivo guarda a política de rotação dos logs?",
    passage(
      "A política de rotação dos logs vale para todos os serviços. A política de rotação dos " +
        "logs fica em /etc/logrotate.conf no servidor. Outra frase sobre outro assunto.",
    ),
  );
  assert.match(file, /^“A política de rotação dos logs fica em \/etc\/logrotate\.conf/);
});

Deno.test("local model: keywords of one language are answered in it, whatever the interface", async () => {
  const model = createLocalModel();
  const en = {
    mode: "lexical",
    passages: [{
      n: 1,
      title: "Files",
      url: "/en/files",
      text: "The shutil module has the copyfile function, which copies a file to another path.",
      score: 5,
      match: 1,
    }],
  };
  const answer = async (question: string) => {
    const prompt: LanguageModelV4Prompt = [
      { role: "system", content: interfaceLine("pt-BR") },
      ...withResult(question, en),
    ];
    return textOf(await collect((await model.doStream({ prompt, tools: TOOLS })).stream));
  };
  // Before, "copy file python?" on the Portuguese interface got "O site trata disso só em inglês:".
  assert.match(
    await answer("copy file python?"),
    /^“The shutil module has the copyfile function/,
  );
  assert.match(await answer("copiar arquivo python?"), /^O site /);
  // A loanword alone tells nothing: the interface's language.
  assert.match(await answer("copyfile?"), /^O site trata disso só em inglês:/);
});

Deno.test("local model: a question in neither language is answered in the interface's", async () => {
  const model = createLocalModel();
  const bilingual = {
    mode: "lexical",
    passages: [
      {
        n: 1,
        title: "Models",
        url: "/en/about/models",
        text: "The site owner offers models from OpenAI and Google Gemini, or a local server.",
        score: 5,
        match: 1,
      },
      {
        n: 2,
        title: "Modelos",
        url: "/sobre/modelos",
        text: "O dono do site oferece modelos da OpenAI e do Google Gemini, ou um servidor local.",
        score: 4,
        match: 1,
      },
    ],
  };
  const answer = async (ui: "English" | "Brazilian Portuguese") => {
    const prompt: LanguageModelV4Prompt = [
      { role: "system", content: interfaceLine(ui === "English" ? "en" : "pt-BR") },
      ...withResult("OpenAI?", bilingual),
    ];
    return textOf(await collect((await model.doStream({ prompt, tools: TOOLS })).stream));
  };
  // Before, both got the English page under "O site trata disso só em inglês", untrue here.
  assert.match(await answer("English"), /^“The site owner offers models/);
  const pt = await answer("Brazilian Portuguese");
  assert.match(pt, /^“O dono do site oferece modelos/);
  assert.doesNotMatch(pt, /só em inglês/);
});

Deno.test("local model: one word of one language, found only on its pages, is answered in it", async () => {
  const model = createLocalModel();
  const page = (n: number, url: string, text: string) => ({
    n,
    title: "Data",
    url,
    text,
    score: 5 - n,
    match: 1,
  });
  const english = page(1, "/en/data", "Your chat history is kept for 30 days, then deleted.");
  const portuguese = page(
    2,
    "/dados",
    "O cookie guarda só o identificador do visitante, assinado pelo servidor.",
  );
  const answer = async (question: string, passages: unknown[]) => {
    const prompt: LanguageModelV4Prompt = [
      { role: "system", content: interfaceLine("pt-BR") },
      ...withResult(question, { mode: "lexical", passages }),
    ];
    return textOf(await collect((await model.doStream({ prompt, tools: TOOLS })).stream));
  };
  // Before: "O site trata disso só em inglês: “Your chat history…”" to an English word.
  assert.match(await answer("history?", [english]), /^“Your chat history is kept/);
  // A loanword the Portuguese pages use too is read in the interface's language.
  assert.match(await answer("cookie?", [portuguese, english]), /^“O cookie guarda/);
  // A word of no lexicon ("copyfile?") still tells nothing: the interface's language.
  const files = page(1, "/en/files", "The shutil module has the copyfile function.");
  assert.match(await answer("copyfile?", [files]), /^O site trata disso só em inglês:/);
});
