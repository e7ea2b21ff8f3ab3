/**
 * The content-gap loop on the real app over loopback: a question the site does not cover
 * shows on /admin/gaps (and its CSV); the owner answers it there; the same question from
 * another visitor is then answered from that answer by the offline model, cited, in one
 * request, and the answer page is public.
 */
import assert from "node:assert/strict";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import type { ChatMessage, SearchToolOutput } from "@/lib/protocol/ui_message.ts";
import { relatedQuestionsOf } from "@/lib/text/related_questions.ts";
import { listGaps, recordGap } from "@/lib/store/gaps.ts";
import { madeUpWord } from "../support/made_up.ts";
import { dismissGap, MAX_DISMISSALS } from "@/lib/store/gap_dismissals.ts";

const ADMIN_TOKEN = "admin-token-gaps-0123456789abcdef";
const QUESTION = "Qual é a receita do bolo de cenoura com cobertura de chocolate?";
const ANSWER = "Bata três cenouras com quatro ovos e óleo, misture farinha e açúcar e asse " +
  "por quarenta minutos. A cobertura leva chocolate em pó, manteiga e leite.";

/** Asks `question` in a new chat of a new visitor; the streamed answer and its sources. */
async function ask(server: TestServer, question: string) {
  const chatId = newChatId();
  const res = await postChat(server.url, { id: chatId, message: userMessage(question) }, {
    jar: new CookieJar(),
  });
  assert.equal(res.status, 200);
  const { chunks } = await readSse(res);
  const sources = chunks.flatMap((c) => c.type === "source-url" ? [c] : []);
  return { chatId, text: streamedText(chunks), sources };
}

/** Asks `question` in chat `chatId` and rates the answer down. */
async function askAndRateDown(
  server: TestServer,
  jar: CookieJar,
  chatId: string,
  question: string,
): Promise<void> {
  const res = await postChat(server.url, { id: chatId, message: userMessage(question) }, { jar });
  const start = (await readSse(res)).chunks.find((c) => c.type === "start");
  assert.ok(start?.type === "start" && start.messageId);
  const rated = await jar.fetch(`${server.url}/api/chats/${chatId}/feedback`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ messageId: start.messageId, rating: "down" }),
  });
  assert.equal(rated.status, 200);
  await rated.body?.cancel();
}

/** Signs in with the admin form; the session cookie. */
async function signIn(server: TestServer): Promise<string> {
  const res = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ token: ADMIN_TOKEN }).toString(),
  });
  await res.body?.cancel();
  assert.equal(res.status, 303);
  return res.headers.getSetCookie()[0].split(";")[0];
}

/** Runs `fn` against a test app with the owner signed in (its session cookie), then closes it. */
async function asOwner(fn: (server: TestServer, cookie: string) => Promise<void>) {
  const server = await startTestServer({ env: { ADMIN_TOKEN }, config: testConfig() });
  try {
    await fn(server, await signIn(server));
  } finally {
    await server.close();
  }
}

/** `count` Portuguese "not covered" gaps, one a chat, in order, worded by `questionOf`. */
async function recordGaps(kv: Deno.Kv, count: number, questionOf: (n: number) => string) {
  for (let n = 0; n < count; n++) {
    const question = questionOf(n);
    await recordGap(kv, {
      at: 1_000 + n,
      chatId: `c${n}`,
      question,
      reason: "not-covered",
      lang: "pt",
    });
  }
}

function adminPost(server: TestServer, cookie: string, fields: Record<string, string>) {
  return fetch(`${server.url}/admin/gaps`, {
    method: "POST",
    redirect: "manual",
    headers: {
      cookie,
      origin: server.url,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** /admin/gaps once it lists `text` (the gap is recorded beside the save, not before it). */
async function gapsPageWith(server: TestServer, cookie: string, text: string): Promise<string> {
  let html = "";
  for (let i = 0; i < 200 && !html.includes(text); i++) {
    if (i) await new Promise((r) => setTimeout(r, 10));
    const res = await fetch(`${server.url}/admin/gaps`, { headers: { cookie } });
    assert.equal(res.status, 200);
    html = await res.text();
  }
  return html;
}

Deno.test("gaps: not covered → /admin/gaps → the owner answers → answered from it, cited", () =>
  asOwner(async (server, cookie) => {
    const first = await ask(server, QUESTION);
    assert.match(first.text, /não tem informação/, first.text);

    const unauthorized = await fetch(`${server.url}/admin/gaps`);
    assert.equal(unauthorized.status, 401);
    await unauthorized.body?.cancel();

    const html = await gapsPageWith(server, cookie, first.chatId);
    assert.ok(html.includes(first.chatId), "the group lists its chat");
    assert.match(html, /bolo de cenoura com cobertura de chocolate/);
    assert.match(html, /não coberta ×1/);

    const csv = await fetch(`${server.url}/admin/gaps.csv`, { headers: { cookie } });
    assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8");
    const rows = (await csv.text()).trim().split("\r\n");
    assert.equal(rows.length, 2);
    assert.ok(rows[1].startsWith(`"${QUESTION}","pt","1","1","0","0",`), rows[1]);

    const saved = await adminPost(server, cookie, {
      action: "save",
      question: "Qual é a receita do bolo de cenoura?",
      answer: ANSWER,
      lang: "pt",
    });
    await saved.body?.cancel();
    assert.equal(saved.status, 303);
    const page = await (await fetch(`${server.url}/admin/gaps`, { headers: { cookie } })).text();
    const id = page.match(/href="\/respostas\/([a-z0-9]{12})"/)?.[1];
    assert.ok(id, "the saved answer links to its page");

    const second = await ask(server, QUESTION);
    assert.match(second.text, /Bata três cenouras/, second.text);
    assert.match(second.text, /\[1\]/);
    const cited = second.sources.find((s) => s.url.endsWith(`/respostas/${id}`));
    assert.ok(cited, JSON.stringify(second.sources));
    const today = new Date().toISOString().slice(0, 10);
    assert.equal(cited.title, `Equipe do site (${today}) › Qual é a receita do bolo de cenoura?`);

    const public_ = await fetch(`${server.url}/respostas/${id}`);
    assert.equal(public_.status, 200);
    assert.match(await public_.text(), /Bata três cenouras/);
    const llms = await (await fetch(`${server.url}/llms.txt`)).text();
    assert.ok(!llms.includes("/respostas/"), "answers are not listed in llms.txt");

    const removed = await adminPost(server, cookie, { action: "remove", id });
    await removed.body?.cancel();
    assert.equal(removed.status, 303);
    const gone = await fetch(`${server.url}/respostas/${id}`);
    await gone.body?.cancel();
    assert.equal(gone.status, 404);
    const third = await ask(server, QUESTION);
    assert.match(third.text, /não tem informação/, third.text);
  }));

Deno.test("gaps: a thumbs-down records the rated answer's question", () =>
  asOwner(async (server, cookie) => {
    const chatId = newChatId();
    await askAndRateDown(
      server,
      new CookieJar(),
      chatId,
      "Como o assistente encontra as respostas?",
    );
    const html = await gapsPageWith(server, cookie, chatId);
    assert.match(html, /Como o assistente encontra as respostas\?/);
    assert.match(html, /avaliação negativa ×1/);
  }));

Deno.test("gaps: a thumbs-down on the reply to a greeting records nothing", () =>
  asOwner(async (server, cookie) => {
    const jar = new CookieJar();
    const chatId = newChatId();
    await askAndRateDown(server, jar, chatId, "Oi, tudo bem?");
    await askAndRateDown(server, jar, chatId, "Como o assistente encontra as respostas?");
    const html = await gapsPageWith(server, cookie, "Como o assistente encontra as respostas?");
    assert.match(html, /avaliação negativa ×1/);
    // Before, "Oi, tudo bem?" was listed as a question the site should answer.
    assert.doesNotMatch(html, /Oi, tudo bem/);
  }));

Deno.test("gaps: an answer asked for again (regenerate) records the question", () =>
  asOwner(async (server, cookie) => {
    const jar = new CookieJar();
    const chatId = newChatId();
    const question = "Quais dados vocês guardam e por quanto tempo?";
    const first = await postChat(server.url, { id: chatId, message: userMessage(question) }, {
      jar,
    });
    await readSse(first);
    const again = await postChat(server.url, { id: chatId, trigger: "regenerate-message" }, {
      jar,
    });
    assert.equal(again.status, 200);
    await readSse(again);
    const html = await gapsPageWith(server, cookie, chatId);
    assert.match(html, /Quais dados vocês guardam e por quanto tempo\?/);
    assert.match(html, /resposta pedida de novo ×1/);
  }));

Deno.test("gaps: going on to a related question records the question its answer missed", () =>
  asOwner(async (server, cookie) => {
    const jar = new CookieJar();
    const chatId = newChatId();
    const question = "O que o cookie guarda sobre mim?";
    const first = await postChat(server.url, { id: chatId, message: userMessage(question) }, {
      jar,
    });
    const { chunks } = await readSse(first);
    // The related questions the page shows under the answer (lib/text/related_questions.ts).
    const output = chunks.find((c) => c.type === "tool-output-available");
    const more = output?.type === "tool-output-available"
      ? (output.output as SearchToolOutput)
      : null;
    const answer: ChatMessage = {
      id: "a",
      role: "assistant",
      parts: [
        {
          type: "tool-search_site",
          toolCallId: "t",
          state: "output-available",
          input: { query: question },
          output: more,
        } as ChatMessage["parts"][number],
        { type: "text", text: streamedText(chunks) },
      ],
    };
    const [related] = relatedQuestionsOf(answer);
    assert.ok(related, "the answer offers a related question");
    // An ordinary follow-up first: no such gap.
    const other = await postChat(server.url, {
      id: chatId,
      message: userMessage("E por quanto tempo?"),
    }, { jar });
    await readSse(other);
    const next = await postChat(server.url, {
      id: chatId,
      message: userMessage("O que o cookie guarda sobre mim?"),
    }, { jar });
    await readSse(next);
    const clicked = await postChat(server.url, {
      id: chatId,
      message: userMessage(related.question),
    }, { jar });
    await readSse(clicked);
    const html = await gapsPageWith(server, cookie, "foi para uma pergunta relacionada ×1");
    const gaps = (await listGaps(server.services.kv)).filter((g) => g.reason === "related");
    assert.deepEqual(gaps.map((g) => [g.question, g.followed]), [[question, related.question]]);
    assert.ok(html.includes(`“${related.question}”`), "the question they went on to is shown");
  }));

Deno.test("gaps: the owner answers a wording with a page; the next visitor's answer cites it", () =>
  asOwner(async (server, cookie) => {
    const question = "Vocês ficam com meu histórico pra sempre?";
    const page = "Por quanto tempo as minhas conversas ficam guardadas?";
    const isPage = (url: string) =>
      url.endsWith("#por-quanto-tempo-as-minhas-conversas-ficam-guardadas");
    const first = await ask(server, question);
    assert.ok(!first.sources.some((s) => isPage(s.url)), JSON.stringify(first.sources));

    const nothing = await adminPost(server, cookie, {
      action: "point",
      question,
      lang: "pt",
      page: "pizza calabresa",
    });
    assert.equal(nothing.status, 400);
    assert.match(await nothing.text(), /Nada no site corresponde a “pizza calabresa”/);

    const pointed = await adminPost(server, cookie, {
      action: "point",
      question,
      lang: "pt",
      page,
    });
    await pointed.body?.cancel();
    assert.equal(pointed.status, 303);
    const html = await (await fetch(`${server.url}/admin/gaps`, { headers: { cookie } })).text();
    assert.match(html, /Respondida com: <a href="[^"]*#por-quanto-tempo-as-minhas-conversas/);
    const id = html.match(/id="a-([a-z0-9]{12})"/)?.[1];
    assert.ok(id, "the pointed question is listed");
    assert.doesNotMatch(html, /não está mais no índice/, "the page is in the index");

    // Another visitor, the same words: the page is the first source, quoted as the site has it.
    const second = await ask(server, question);
    assert.ok(isPage(second.sources[0]?.url ?? ""), JSON.stringify(second.sources));
    assert.equal(second.sources[0].title, `Perguntas frequentes › Sobre ações e dados › ${page}`);
    assert.match(second.text, /\[1\]/);
    assert.equal(second.sources.filter((s) => isPage(s.url)).length, 1, "listed once");
    // The question has no page of its own: its address leads to the site's page.
    const own = await fetch(`${server.url}/respostas/${id}`, { redirect: "manual" });
    await own.body?.cancel();
    assert.equal(own.status, 303);
    assert.ok(isPage(own.headers.get("location") ?? ""));

    const removed = await adminPost(server, cookie, { action: "remove", id });
    await removed.body?.cancel();
    const third = await ask(server, question);
    assert.ok(!third.sources.some((s) => isPage(s.url)), JSON.stringify(third.sources));
  }));

Deno.test("gaps: a wording whose page left the index is marked, and not answered with it", () =>
  asOwner(async (server, cookie) => {
    const question = "Vocês têm uma página sobre descontos para estudantes?";
    // As a rebuild leaves it: the page the owner picked is no longer in the index.
    const saved = await server.services.ownerAnswers.save({
      question,
      answer: "",
      lang: "pt",
      target: { id: "descontos#estudantes", title: "Descontos › Estudantes", url: "/descontos" },
    });
    const html = await (await fetch(`${server.url}/admin/gaps`, { headers: { cookie } })).text();
    const item = html.slice(html.indexOf(`id="a-${saved!.id}"`));
    assert.match(item, /Esta página não está mais no índice do site/);
    const asked = await ask(server, question);
    assert.ok(
      !asked.sources.some((s) => s.url.includes("descontos")),
      JSON.stringify(asked.sources),
    );
    assert.ok(!asked.sources.some((s) => s.url.includes("/respostas/")));
  }));

Deno.test("gaps: the owner picks one of the pages the search found for a group", () =>
  asOwner(async (server, cookie) => {
    // Answered from "Posso parar uma resposta no meio?" ("…fica guardado na conversa"): the
    // visitor rates it down; the page on how long chats are kept is among those found.
    const question = "Vocês guardam o que eu escrevo?";
    const right = "perguntas-frequentes#por-quanto-tempo-as-minhas-conversas-ficam-guardadas";
    const first = await ask(server, question);
    assert.ok(!first.sources[0]?.url.endsWith(right.split("#")[1]), JSON.stringify(first.sources));
    await recordGap(server.services.kv, {
      question,
      reason: "related",
      lang: "pt",
      at: Date.now(),
      chatId: first.chatId,
      followed: "Por quanto tempo as minhas conversas ficam guardadas?",
    });

    const html = await gapsPageWith(server, cookie, question);
    const group = html.slice(html.indexOf(`<h2>${question}</h2>`));
    const offered = [...group.matchAll(/name="pageId" value="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(offered.includes(right), offered.join(", "));
    assert.ok(offered.length <= 10, "at most ten pages offered");
    assert.ok(!offered.some((id) => id.startsWith("respostas/")), "never a team answer");
    // The related question visitors went on to is one of them: it is the one picked.
    const checked = [...group.matchAll(/<input[^>]*name="pageId"[^>]*>/g)]
      .filter((m) => / checked/.test(m[0])).map((m) => m[0].match(/value="([^"]*)"/)?.[1]);
    assert.deepEqual(checked.slice(0, 1), [right]);

    const stale = await adminPost(server, cookie, {
      action: "point",
      question,
      lang: "pt",
      pageId: "pagina-que-saiu#do-indice",
    });
    assert.equal(stale.status, 400);
    assert.match(await stale.text(), /Essa página não está mais no índice do site/);

    const picked = await adminPost(server, cookie, {
      action: "point",
      question,
      lang: "pt",
      pageId: right,
      page: "",
    });
    await picked.body?.cancel();
    assert.equal(picked.status, 303);
    const after = await (await fetch(`${server.url}/admin/gaps`, { headers: { cookie } })).text();
    assert.match(after, /Respondida com: <a href="[^"]*#por-quanto-tempo-as-minhas-conversas/);

    // The group is now under "Já respondidas", with the answer that serves it.
    const answeredPart = after.slice(after.indexOf('id="answered"'), after.indexOf('id="answers"'));
    assert.ok(answeredPart.includes(`<h3>${question}</h3>`), "listed as answered");
    assert.ok(!answeredPart.includes('name="pageId"'), "no second answer offered");
    assert.match(answeredPart, /Respondida por: <a href="#a-[a-z0-9]{12}">/);
    const openPart = after.slice(0, after.indexOf('id="answered"'));
    assert.ok(!openPart.includes(`<h2>${question}</h2>`), "no longer listed as open");

    const next = await ask(server, question);
    assert.ok(next.sources[0]?.url.endsWith(right.split("#")[1]), JSON.stringify(next.sources));

    // Rated down again after the answer: the group is open again, and says so.
    await recordGap(server.services.kv, {
      question,
      reason: "thumbs-down",
      lang: "pt",
      at: Date.now() + 1,
      chatId: next.chatId,
    });
    const again = await (await fetch(`${server.url}/admin/gaps`, { headers: { cookie } })).text();
    const reopened = again.slice(0, again.indexOf('id="answers"'));
    assert.ok(!reopened.includes('id="answered"'), "no group is answered and unasked since");
    assert.match(reopened, /perguntada 1× depois dessa resposta/);
  }));

Deno.test("gaps: each section is paged, and a form returns the owner to the page it was on", () =>
  asOwner(async (server, cookie) => {
    const { kv, ownerAnswers } = server.services;
    await recordGaps(
      kv,
      70,
      (n) => `${madeUpWord(n, "z")} ${madeUpWord(n, "q")} ${madeUpWord(n, "v")}?`,
    );
    for (let n = 0; n < 31; n++) {
      await ownerAnswers.save({
        question: `Resposta ${madeUpWord(n, "r")}?`,
        answer: "Sim.",
        lang: "pt",
      });
    }
    const view = async (query: string) => {
      const res = await fetch(`${server.url}/admin/gaps${query}`, { headers: { cookie } });
      return { status: res.status, html: await res.text() };
    };
    const groupsOf = (html: string) => html.match(/<section class="gap-group">/g)?.length ?? 0;

    const first = await view("");
    assert.equal(first.status, 200);
    assert.equal(groupsOf(first.html), 30);
    assert.match(first.html.match(/<nav class="gap-pager"[^]*?<\/nav>/)?.[0] ?? "", /1–30 de 70/);
    assert.match(first.html, /href="\/admin\/gaps\?page=2#open" rel="next"/);
    assert.ok(!first.html.includes('rel="prev"'), "no newer page before the first");
    // The newest gap first; its question searched for the pages that may answer it.
    assert.ok(first.html.includes(madeUpWord(69, "z")));
    assert.ok(!first.html.includes(madeUpWord(39, "z")), "the 31st newest is on page 2");
    // Three forms a shown group (write, pick a page, dismiss), two a shown answer (edit, remove).
    assert.equal(first.html.match(/<form method="post" action="\/admin\/gaps"/g)?.length, 150);

    const last = await view("?page=3&answers=2");
    assert.equal(groupsOf(last.html), 10);
    assert.match(last.html, /61–70 de 70/);
    // Each section's links keep the other section's page.
    assert.ok(last.html.includes('href="/admin/gaps?page=2&amp;answers=2#open" rel="prev"'));
    assert.ok(last.html.includes('href="/admin/gaps?page=3#answers" rel="prev"'));
    assert.ok(last.html.includes(madeUpWord(0, "z")), "the oldest gap is on the last page");
    assert.match(last.html, /31–31 de 31/);
    assert.equal(last.html.match(/class="gap-answer"/g)?.length, 1);
    // A page past the end (groups answered since the link was made) shows the last one.
    assert.match((await view("?page=9")).html, /61–70 de 70/);
    const bad = await view("?page=dois");
    assert.equal(bad.status, 400);
    assert.match(bad.html, /Invalid &quot;page&quot;: &quot;dois&quot;/);

    // The forms post back with the pages shown; the owner lands on them again.
    const action = last.html.match(/<form method="post" action="([^"]+)" class="gap-form">/)?.[1];
    assert.equal(action, "/admin/gaps?page=3&amp;answers=2");
    const saved = await fetch(`${server.url}/admin/gaps?page=3&answers=2`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        action: "save",
        question: `${madeUpWord(0, "z")}?`,
        answer: "Não.",
        lang: "pt",
      }).toString(),
    });
    await saved.body?.cancel();
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get("location"), "/admin/gaps?page=3&answers=2&done=saved#answers");
  }));

Deno.test("gaps: a save the store refuses, or a page that matches nothing, shows the owner's input again", () =>
  asOwner(async (server, cookie) => {
    const answers = server.services.ownerAnswers;
    const save = answers.save;
    let failures = 1;
    answers.save = (...args) =>
      failures-- > 0 ? Promise.reject(new Error("injected: KV unavailable")) : save(...args);
    const written = {
      action: "save",
      question: "Vocês entregam em Portugal?",
      answer: "Sim, em até 5 dias úteis, com frete calculado no carrinho.",
      lang: "pt",
    };
    const refused = await fetch(`${server.url}/admin/gaps?page=2`, {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(written).toString(),
    });
    assert.equal(refused.status, 503);
    const html = await refused.text();
    assert.match(html, /nada foi salvo/);
    assert.ok(html.includes(`>${written.answer}</textarea>`), "the answer written is kept");
    assert.ok(html.includes(`value="${written.question}"`));
    assert.ok(html.includes('action="/admin/gaps?page=2"'), "sent again to the same pages");
    assert.equal((await answers.list()).length, 0);
    // Sent again as the page shows it: saved.
    const again = await adminPost(server, cookie, written);
    await again.body?.cancel();
    assert.equal(again.status, 303);
    assert.equal((await answers.list()).length, 1);

    const nothing = await adminPost(server, cookie, {
      action: "point",
      question: "Tem desconto pra estudante?",
      lang: "pt",
      pageId: "",
      page: "pizza calabresa gigante",
    });
    assert.equal(nothing.status, 400);
    const form = await nothing.text();
    assert.match(form, /Corrija abaixo/);
    assert.match(form, /Nada no site corresponde/);
    assert.ok(form.includes('value="pizza calabresa gigante"'), "the title typed is kept");
    assert.ok(form.includes('value="Tem desconto pra estudante?"'));
    // In the owner's language.
    const english = await adminPost(server, `${cookie}; lang=en`, {
      action: "save",
      question: "Do you ship to Portugal?",
      answer: " ",
      lang: "en",
    });
    assert.equal(english.status, 400);
    const correct = await english.text();
    assert.match(
      correct,
      /Correct it below and send it again: <strong>Write the answer in 1 to 4000/,
    );
  }));

/** `kv` whose atomic writes to ["gaps", …] commit `ms` late, as on a slow KV region. */
function slowGapWrites(kv: Deno.Kv, ms: number): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") return () => slowGapOp(target.atomic(), ms);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function slowGapOp(op: Deno.AtomicOperation, ms: number): Deno.AtomicOperation {
  let gap = false;
  const slow: Deno.AtomicOperation = new Proxy(op, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (prop === "set" && (args[0] as Deno.KvKey)[0] === "gaps") gap = true;
        if (prop === "commit" && gap) {
          return new Promise((r) => setTimeout(r, ms)).then(() => target.commit());
        }
        const result = value.apply(target, args);
        return result === target ? slow : result;
      };
    },
  });
  return slow;
}

Deno.test("gaps: closing the app waits for the gap recorded beside an answer", async () => {
  const kv = await Deno.openKv(":memory:");
  const server = await startTestServer({
    kv: slowGapWrites(kv, 150),
    env: { ADMIN_TOKEN },
    config: testConfig(),
  });
  try {
    const { text } = await ask(server, QUESTION);
    assert.match(text, /não tem informação/, text);
  } finally {
    await server.close();
  }
  try {
    const gaps = await listGaps(kv);
    assert.deepEqual(gaps.map((g) => g.question), [QUESTION]);
  } finally {
    kv.close();
  }
});

Deno.test("gaps: the owner dismisses a group no page will answer; alike questions stay dismissed until restored", () =>
  asOwner(async (server, cookie) => {
    const { kv } = server.services;
    const pizza = { chatId: "c1", reason: "not-covered", lang: "pt" } as const;
    await recordGap(kv, { ...pizza, at: 1_000, question: "Vocês entregam pizza?" });
    await recordGap(kv, { ...pizza, at: 2_000, question: "Qual o horário de atendimento?" });
    const view = async () =>
      await (await fetch(`${server.url}/admin/gaps`, { headers: { cookie } })).text();
    const openPart = (html: string) =>
      html.slice(
        html.indexOf('<div id="open">'),
        html.indexOf("</div>", html.indexOf('<div id="open">')),
      );
    const dismissedPart = (html: string) => html.slice(html.indexOf('<section id="dismissed"'));

    const dismissed = await adminPost(server, cookie, {
      action: "dismiss",
      question: "Vocês entregam pizza?",
      lang: "pt",
    });
    await dismissed.body?.cancel();
    assert.equal(dismissed.status, 303);
    assert.equal(dismissed.headers.get("location"), "/admin/gaps?done=dismissed#open");
    let html = await view();
    assert.ok(!openPart(html).includes("pizza"), "no longer among the open groups");
    assert.ok(openPart(html).includes("Qual o horário de atendimento?"));
    assert.match(
      dismissedPart(html),
      /<h2 id="dismissed-title">Dispensadas<\/h2>[^]*<h3>Vocês entregam pizza\?<\/h3>/,
    );

    // Asked again, in other words: dismissed still, and counted.
    await recordGap(kv, {
      ...pizza,
      at: Date.now() + 1_000,
      question: "Vocês entregam pizza em casa?",
    });
    html = await view();
    assert.ok(!openPart(html).includes("pizza"));
    assert.match(dismissedPart(html), /perguntada 1× depois/);

    const id = dismissedPart(html).match(/name="id" value="([a-z0-9]{12})"/)?.[1];
    assert.ok(id, "the dismissed group has its restore button");
    const restored = await adminPost(server, cookie, { action: "restore", id });
    await restored.body?.cancel();
    assert.equal(restored.status, 303);
    html = await view();
    assert.ok(openPart(html).includes("Vocês entregam pizza em casa?"), "open again");
    assert.ok(!html.includes('<section id="dismissed"'));

    // Restored again (another tab): what the owner asked for holds.
    const again = await adminPost(server, cookie, { action: "restore", id });
    assert.equal(again.status, 303);
    await again.body?.cancel();
    const badLang = await adminPost(server, cookie, {
      action: "dismiss",
      question: "x?",
      lang: "fr",
    });
    assert.equal(badLang.status, 400);
    await badLang.body?.cancel();
    // At the limit, said in the owner's language.
    for (let i = 0; i < MAX_DISMISSALS; i++) {
      await dismissGap(kv, { question: `Pergunta dispensada ${i}?`, lang: "pt" }, 10);
    }
    const full = await adminPost(server, cookie, {
      action: "dismiss",
      question: "Mais uma?",
      lang: "pt",
    });
    assert.equal(full.status, 400);
    assert.match(await full.text(), /Já há 500 grupos dispensados: restaure um antes/);
  }));

Deno.test("gaps: an answer removed in another tab: removing it again is done, editing it keeps the text", () =>
  asOwner(async (server, cookie) => {
    const answers = server.services.ownerAnswers;
    const saved = await answers.save({
      question: "Entregam em Portugal?",
      answer: "Sim.",
      lang: "pt",
    });
    assert.ok(saved);
    for (let i = 0; i < 2; i++) {
      const removed = await adminPost(server, cookie, { action: "remove", id: saved.id });
      await removed.body?.cancel();
      assert.equal(removed.status, 303);
      assert.equal(removed.headers.get("location"), "/admin/gaps?done=removed#answers");
    }
    const edited = await adminPost(server, cookie, {
      action: "save",
      id: saved.id,
      question: "Entregam em Portugal?",
      answer: "Sim, em até 5 dias úteis.",
      lang: "pt",
    });
    assert.equal(edited.status, 409);
    const html = await edited.text();
    assert.match(html, /Essa resposta foi removida enquanto você editava/);
    assert.ok(html.includes(">Sim, em até 5 dias úteis.</textarea>"), "the edit is kept");
    assert.ok(!html.includes(`value="${saved.id}"`), "sent again, it is a new answer");
  }));

Deno.test("gaps: the owner's filter keeps the groups whose wordings hold its words, through paging and forms", () =>
  asOwner(async (server, cookie) => {
    const { kv } = server.services;
    await recordGaps(
      kv,
      45,
      (n) => `${madeUpWord(n, "z")} ${madeUpWord(n, "q")}${n < 35 ? " pizza" : ""}?`,
    );
    const view = async (query: string) =>
      await (await fetch(`${server.url}/admin/gaps${query}`, { headers: { cookie } })).text();
    const groupsOf = (html: string) => html.match(/<section class="gap-group">/g)?.length ?? 0;

    const pizza = await view("?q=PIZZA");
    assert.equal(groupsOf(pizza), 30);
    assert.match(pizza, /1–30 de 35/);
    assert.ok(pizza.includes('<input type="search" name="q" value="PIZZA"'));
    assert.ok(
      pizza.includes('href="/admin/gaps?q=PIZZA&amp;page=2#open" rel="next"'),
      "paging keeps it",
    );
    assert.ok(pizza.includes('<form method="post" action="/admin/gaps?q=PIZZA" class="gap-form">'));
    assert.equal(groupsOf(await view("?q=pizza&page=2")), 5);
    // Accents and case aside, every word: one group.
    const one = await view(`?q=${encodeURIComponent(`${madeUpWord(40, "q").toUpperCase()}`)}`);
    assert.equal(groupsOf(one), 1);
    assert.match(await view("?q=calabresa"), /Nenhuma pergunta em aberto com essas palavras/);
    assert.equal(groupsOf(await view("")), 30);
  }));

Deno.test("gaps: a dismissed question is answered 'not covered' from then on, typo and all, until restored", () =>
  asOwner(async (server, cookie) => {
    const question = "Dá pra mudar a cor do botão?";
    // Words the site has ("mudar", "botão"), the wrong page quoted: the gate lets it through.
    const before = await ask(server, question);
    assert.ok(before.sources.length > 0, before.text);
    const dismissed = await adminPost(server, cookie, { action: "dismiss", question, lang: "pt" });
    await dismissed.body?.cancel();
    assert.equal(dismissed.status, 303);
    const after = await ask(server, "Dá pra mudra a cor do botão?");
    assert.match(after.text, /não tem informação/, after.text);
    assert.equal(after.sources.length, 0);
    // A question of the site sharing its words is answered as before.
    const covered = await ask(server, "Posso mudar de modelo no meio da conversa?");
    assert.ok(covered.sources.length > 0, covered.text);

    // The refused question is recorded beside its answer, into the dismissed group.
    const html = await gapsPageWith(server, cookie, '<section id="dismissed"');
    const id = html.slice(html.indexOf('<section id="dismissed"'))
      .match(/name="id" value="([a-z0-9]{12})"/)?.[1];
    assert.ok(id, "the refused question joined the dismissed group");
    const restored = await adminPost(server, cookie, { action: "restore", id });
    await restored.body?.cancel();
    assert.ok((await ask(server, question)).sources.length > 0, "answered again once restored");
  }));
