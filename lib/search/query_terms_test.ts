import assert from "node:assert/strict";
import { askedVerb, queryTerms, searchText, withoutClitics } from "./query_terms.ts";
import { buildIndexData } from "./index_data.ts";
import { SearchEngine } from "./engine.ts";

Deno.test("queryTerms drops interrogatives, then framing verbs, but never every term", () => {
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 0), [
    "qua",
    "disciplin",
    "alun",
    "dev",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 1), [
    "disciplin",
    "alun",
    "dev",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 2), [
    "disciplin",
    "alun",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Quantos?", "pt", 2), ["quant"]);
  assert.deepEqual(queryTerms("How many credits?", "en", 1), ["credit"]);
});

Deno.test("a page full of question words no longer outranks the page that answers", () => {
  const passage = (id: string, text: string) => ({
    id,
    docId: id,
    title: "",
    url: null,
    lang: "pt" as const,
    text,
  });
  const data = buildIndexData([
    passage("faq", "Quais disciplinas? Quais prazos? Quais regras? Quais? Quais?"),
    passage("grade", "As disciplinas obrigatórias do aluno estão na grade."),
    passage("x", "O restaurante universitário abre às sete."),
    passage("y", "A biblioteca abre às oito."),
  ]);
  const q = "Quais disciplinas o aluno deve cursar?";
  // What the engine did before: "quais" matched, and the FAQ page won.
  assert.equal(new SearchEngine(data, { questionWords: 0 }).rankLexical(q, 3).ids[0], 0);
  assert.equal(new SearchEngine(data).rankLexical(q, 3).ids[0], 1);
});

Deno.test("askedVerb: the verb after how/como, past pronouns and auxiliaries", () => {
  assert.ok(askedVerb("Como eu clono um objeto?").has("clon"));
  assert.ok(askedVerb("How do I dedupe a list?").has("dedup"));
  // After "faço para" the infinitive is what the question is about, not how it asks.
  assert.ok(!askedVerb("Como faço para emagrecer?").has("emagrec"));
  assert.equal(askedVerb("Python tem goto?").size, 0);
});

Deno.test("a modal that opens a first-person question frames it and is dropped; mid-question it stays", () => {
  assert.deepEqual(queryTerms("Preciso de chave de API?", "pt", 1), ["chav", "api"]);
  assert.deepEqual(queryTerms("Eu posso usar o Claude?", "pt", 1), ["usar", "claud"]);
  assert.deepEqual(queryTerms("Do I need an API key?", "en", 1), ["api", "kei"]);
  assert.deepEqual(queryTerms("Quais disciplinas o aluno deve cursar?", "pt", 1), [
    "disciplin",
    "alun",
    "dev",
    "curs",
  ]);
  assert.deepEqual(queryTerms("Posso?", "pt", 1), ["poss"]);
});

Deno.test("'Preciso de chave de API?' finds the passage about keys, not the entry that needs an account", async () => {
  // Keys and the API come up all over the site, so their words weigh less than "preciso".
  const others = ["implantacao", "seguranca", "provedores", "limites", "registros"].map((id) => ({
    id: `${id}#a`,
    docId: id,
    title: id,
    url: `/${id}`,
    lang: "pt" as const,
    text: `A API e a chave do provedor aparecem também em ${id}, com outros detalhes do servidor.`,
  }));
  const engine = new SearchEngine(buildIndexData([
    ...others,
    {
      id: "faq#conta",
      docId: "faq",
      title: "Perguntas frequentes › Preciso criar uma conta para usar o assistente?",
      url: "/faq#conta",
      lang: "pt",
      text: "Não há cadastro nem login: um cookie assinado identifica o visitante.",
    },
    {
      id: "como#chaves",
      docId: "como",
      title: "Como funciona › Modelos com e sem chave",
      url: "/como#chaves",
      lang: "pt",
      text: "Sem chave de API configurada, o assistente usa o modelo offline; com uma chave de " +
        "API da OpenAI ou do Gemini, os modelos do provedor aparecem no seletor. A chave fica no " +
        "servidor e a API nunca a mostra.",
    },
  ]));
  // Before, "preciso", rare in the prose, put the account entry first.
  const { passages } = await engine.search("Preciso de chave de API?", { k: 2 });
  assert.equal(passages[0].id, "como#chaves");
});

Deno.test("withoutClitics drops what a contraction leaves after its apostrophe, nothing else", () => {
  assert.equal(
    withoutClitics("Any linters you'd recommend? I've tried, we'll see"),
    "Any linters you recommend? I tried, we see",
  );
  assert.equal(withoutClitics("I’m here, they're not"), "I here, they not");
  // "'s" and "n't" leave stopwords; a code quote and a Portuguese "d'água" are no clitics.
  assert.equal(withoutClitics("Python's r'...' doesn't"), "Python's r'...' doesn't");
  assert.equal(withoutClitics("caixa-d'água"), "caixa-d'água");
  // "won't" would leave "won", a word of its own.
  assert.equal(
    withoutClitics("Python won't start, Won’t it?"),
    "Python will not start, will not it?",
  );
});

Deno.test("the words that ask what something means frame the question and are dropped", () => {
  // "O que significa sid?" matched passages on "significa"; "What does rc mean…?" on "mean".
  assert.deepEqual(queryTerms("O que significa sid?", "pt", 1), ["sid"]);
  assert.deepEqual(queryTerms("O que quer dizer rc numa versão?", "pt", 1), ["rc", "versa"]);
  assert.deepEqual(queryTerms("What does rc mean in a version name?", "en", 1), [
    "rc",
    "version",
    "name",
  ]);
  // Elsewhere they are words of the question.
  assert.deepEqual(queryTerms("O que o aluno quer dizer com isso?", "pt", 1), [
    "alun",
    "quer",
    "diz",
  ]);
  assert.deepEqual(queryTerms("What is the mean of a list?", "en", 1), ["mean", "list"]);
  assert.equal(searchText("O que significa sid?", ["pt"]), "   sid?");
});

Deno.test("searchText cuts the words queryTerms leaves out and keeps the rest as typed", () => {
  assert.equal(searchText("Quais são os modelos?", ["pt"]), "   modelos?");
  assert.equal(searchText("Preciso de chave de API?", ["pt"]), "  chave  API?");
  // Code stays as typed: Postgres's parser reads "list.sort" whole.
  assert.equal(searchText("How do I call list.sort() here?", ["en"]), "   call list.sort() ?");
  assert.equal(searchText("Any linters you'd recommend?", ["en"]), " linters  recommend?");
  // Nothing but question words: searched as asked.
  assert.equal(searchText("quando?", ["pt"]), "quando?");
});

Deno.test("'vs' asks to compare and is no word the site lacks", async () => {
  assert.deepEqual(queryTerms("tupla vs lista?", "pt", 1), ["tupl", "list"]);
  const engine = new SearchEngine(buildIndexData([{
    id: "faq#tipos",
    docId: "faq",
    title: "Perguntas › Por que existem tipos separados para tuplas e listas?",
    url: "/faq#tipos",
    lang: "pt",
    text: "Listas e tuplas servem a propósitos diferentes.",
  }]));
  // Counted as a word the site lacks, "vs" kept the match under the "not covered" gate.
  const { passages } = await engine.search("tupla vs lista?", { k: 1 });
  assert.equal(passages[0].match, 1);
});

/** An index of passages in `lang`: [id, title, text] each. */
function site(lang: "pt" | "en", passages: Array<[string, string, string]>) {
  return buildIndexData(
    passages.map(([id, title, text]) => ({ id, docId: id, title, url: null, lang, text })),
  );
}

/** The offline model's "not covered" gate (lib/models/extractive.ts MIN_MATCH). */
const GATE = 0.54;

/** Asserts that the top passage for `question` (`id`, when given) is past the gate. */
async function assertPastGate(engine: SearchEngine, question: string, id?: string) {
  const { passages } = await engine.search(question, { k: 1 });
  if (id) assert.equal(passages[0]?.id, id);
  assert.ok(passages[0].match! >= GATE, `match ${passages[0].match}`);
}

/** An FAQ entry for `site`: its question is the title's last part. */
const faq = (id: string, question: string, text: string): [string, string, string] => [
  id,
  `FAQ › ${question}`,
  text,
];

Deno.test('"como faço?" is no query word: the entry about the asked thing, not every "Como faço…"', () => {
  const data = site("pt", [
    faq("objeto", "Como faço para copiar um objeto?", "Use copy.copy; copy.deepcopy copia tudo."),
    faq("arquivo", "Como eu copio um arquivo?", "O módulo shutil tem a função copyfile."),
    // "arquivo" is a common word of the site, "faço" a rare one.
    faq("ler", "Como leio dados binários?", "Abra o arquivo no modo rb e leia o arquivo."),
    faq("pyc", "Como crio um .pyc?", "O arquivo .pyc sai do arquivo .py ao importar."),
    faq(
      "exe",
      "Como rodo um programa?",
      "Dê dois cliques no arquivo, ou chame python e o arquivo.",
    ),
  ]);
  const engine = new SearchEngine(data);
  const top = engine.rankLexical("Preciso copiar um arquivo, como faço?", 2).ids[0];
  assert.equal(engine.passage(top).id, "arquivo");
  assert.deepEqual(queryTerms("Como faço para instalar?", "pt", 1), ["instal"]);
});

Deno.test('"something", "anyone"… are no query words, as "some" and "any" are stopwords', () => {
  const data = site("en", [
    ["titles", "Something to know", "The bot asks the model for a title."],
    ["approvals", "Approvals", "The bot never buys without your approval."],
    ["keys", "Keys", "With no key, the offline model answers."],
  ]);
  const engine = new SearchEngine(data);
  const top = engine.rankLexical("Can the bot buy something without asking me?", 2);
  assert.equal(engine.passage(top.ids[0]).id, "approvals");
  assert.deepEqual(queryTerms("Can anyone see something?", "en", 1), ["see"]);
});

Deno.test('"the quickest way to <verb>" asks with its superlative and verb, as "how do I <verb>"', async () => {
  const asked = askedVerb("Quickest way to dedupe a list?");
  for (const t of ["quickest", "way", "dedup"]) assert.ok(asked.has(t), t);
  assert.ok(!asked.has("list"));
  assert.ok(askedVerb("Qual o jeito mais rápido de clonar um objeto?").has("clon"));
  assert.ok(askedVerb("Qual a melhor forma de clonar um objeto?").has("melhor"));
  // The site lacks "quickest" and "dedupe": counted as words it lacks, they put the entry
  // that answers under the gate.
  const engine = new SearchEngine(site("en", [
    faq("dups", "How do you remove duplicates from a list?", "Sort the list, or use list(set(x))."),
    faq("sort", "How do I sort a list?", "Use sorted(), or the list's sort method."),
    faq("copy", "How do I copy an object?", "Use copy.copy or copy.deepcopy."),
  ]));
  await assertPastGate(engine, "Quickest way to dedupe a list?");
});

Deno.test('"How can my script fire off an email?" asks with "fire": the subject comes first', async () => {
  assert.ok(askedVerb("How can my script fire off an email?").has("fire"));
  assert.ok(askedVerb("How does the GIL work?").has("work"));
  assert.ok(askedVerb("How do I clone an object?").has("clone"));
  const engine = new SearchEngine(site("en", [
    faq("mail", "How do I send an email from a script?", "Use the smtplib module."),
    faq("run", "How do I run a script?", "Call python with the script's name."),
    faq("copy", "How do I copy an object?", "Use copy.copy or copy.deepcopy."),
    faq("exe", "How do I make a script executable?", "Give the script a shebang line."),
  ]));
  // "fire" is no word of the site: counted as a word it lacks, the mail entry fell under the
  // gate.
  await assertPastGate(engine, "How can my script fire off an email?", "mail");
});

Deno.test('"Dá pra mandar email…?" asks with "mandar", as "Como mando…?" would', async () => {
  assert.ok(askedVerb("Dá pra mandar email direto do meu programa?").has("mand"));
  assert.ok(askedVerb("Posso eu usar isso?").has("usar"));
  assert.ok(askedVerb("Can I package my app?").has("packag"));
  assert.ok(!askedVerb("Dá pra mandar email direto do meu programa?").has("email"));
  // After "preciso de" comes what the question is about, a word like any other.
  assert.ok(!askedVerb("Preciso de chave de API?").has("chav"));
  const engine = new SearchEngine(site("pt", [
    faq("email", "Como envio um email de um programa?", "Use o módulo smtplib."),
    faq("rodar", "Como rodo um programa?", "Chame python com o nome do programa."),
    faq("exe", "Como crio um executável do programa?", "Use o PyInstaller no programa."),
    faq("copia", "Como copio um objeto?", "Use copy.copy ou copy.deepcopy."),
  ]));
  // "mandar" is no word of the site ("envio" is): counted as a word it lacks, the entry that
  // answers fell under the gate.
  await assertPastGate(engine, "Dá pra mandar email do meu programa?", "email");
});

Deno.test('"…sem mexer no original?" asks with "mexer": how, not what', async () => {
  assert.ok(askedVerb("Como clono um objeto sem mexer no original?").has("mex"));
  assert.ok(askedVerb("How do I upgrade without breaking anything?").has("break"));
  // A noun after "sem" is what the question is about.
  assert.ok(!askedVerb("Funciona sem chave?").has("chav"));
  const engine = new SearchEngine(site("pt", [
    faq("copia", "Como copio um objeto?", "Use copy.copy: o original não muda."),
    faq("lista", "Como ordeno uma lista?", "Use sorted(lista)."),
    faq("email", "Como envio um email?", "Use o módulo smtplib."),
    faq("objeto", "O que é um objeto?", "Tudo em Python é um objeto."),
    // "objeto" and "original" are common words of the site.
    faq("classe", "O que é uma classe?", "Um objeto é uma instância de uma classe original."),
    faq("id", "Como vejo a identidade de um objeto?", "Use id(objeto); o original tem a sua."),
    faq("tipo", "Como vejo o tipo de um objeto?", "Use type(objeto)."),
  ]));
  // "clono" and "mexer" are no words of the site: counted as a word it lacks, "mexer" put every
  // passage under the gate.
  await assertPastGate(engine, "Como clono um objeto sem mexer no original?");
});
