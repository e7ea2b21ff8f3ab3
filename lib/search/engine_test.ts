import assert from "node:assert/strict";
import { SearchEngine } from "./engine.ts";
import { buildIndexData, type PassageInput } from "./index_data.ts";
import { type Lexicon, parseLexicon } from "./lexicon.ts";

const passage = (id: string, title: string, text: string): PassageInput => ({
  id,
  docId: id.split("#")[0],
  title,
  url: null,
  lang: "pt",
  text,
});

const data = buildIndexData([
  passage("faq#ingles", "Perguntas › Posso usar em inglês?", "Sim, sim: em inglês também."),
  passage("modelos#catalogo", "Catálogo de modelos", "Três famílias de provedores e seus preços."),
  passage("modelos#escolher", "Catálogo de modelos › Qual modelo escolher", "Qualquer um serve."),
  passage("outro#a", "Outra página", "Texto sem relação com nada."),
]);

Deno.test("pageWeight lifts the passages of the page whose headings match", () => {
  const ids = (pageWeight: number) => {
    const engine = new SearchEngine(data, { pageWeight });
    return engine.rankLexical("sim, modelos", 4).ids.map((i) => engine.passage(i).id);
  };
  assert.equal(ids(0)[0], "faq#ingles");
  assert.deepEqual(ids(4).slice(0, 2).sort(), ["modelos#catalogo", "modelos#escolher"]);
});

Deno.test("search reports each passage's match: the share of the query's weight it holds", async () => {
  const engine = new SearchEngine(data);
  const { passages } = await engine.search("catálogo de modelos", { k: 2 });
  assert.equal(passages[0].match, 1);
  const none = await engine.search("pizza modelos", { k: 1 });
  assert.ok(none.passages[0].match! > 0 && none.passages[0].match! < 0.5);
});

Deno.test("search reports the share of the query's weight each passage's own heading holds", async () => {
  const engine = new SearchEngine(data);
  const heading = async (q: string) =>
    new Map((await engine.search(q, { k: 4 })).passages.map((p) => [p.id, p.heading]));
  // Only the last heading counts: the section's "Catálogo de modelos" is its page's name.
  const asked = await heading("qual modelo escolher no catálogo");
  assert.ok(asked.get("modelos#escolher")! > asked.get("modelos#catalogo")!);
  assert.ok(asked.get("modelos#escolher")! < 1);
  assert.equal((await heading("como escolher")).get("modelos#escolher"), 1);
  // A section its text matches and its heading does not.
  assert.equal((await heading("preços dos provedores")).get("modelos#catalogo"), 0);
});

Deno.test('"para mim" does not lift an FAQ entry written "sobre mim" over the asked thing', () => {
  const site = buildIndexData([
    passage(
      "faq#apagar",
      "Perguntas › Como apago tudo o que o assistente guardou sobre mim?",
      "Use a opção apagar meus dados.",
    ),
    passage(
      "modelos#escolher",
      "Catálogo de modelos › Qual modelo escolher",
      "Para perguntas simples, o mais barato; o maior é melhor para análises longas e código.",
    ),
    // "modelo" is a common word of the site, "mim" a rare one.
    passage("modelos#catalogo", "Catálogo de modelos", "Cada modelo tem um preço por token."),
    passage("modelos#offline", "Catálogo de modelos › Offline", "O modelo local não tem custo."),
  ]);
  const engine = new SearchEngine(site);
  const top = engine.rankLexical("Qual modelo é melhor para mim?", 2).ids[0];
  assert.equal(engine.passage(top).id, "modelos#escolher");
});

Deno.test("a code question finds the entry by its operator and negative index", () => {
  const en = (id: string, title: string, text: string): PassageInput => ({
    ...passage(id, title, text),
    lang: "en",
  });
  const site = buildIndexData([
    en("faq#floor", "FAQ › Why does -22 // 10 return -3?", "Integer division returns the floor."),
    en("faq#index", "FAQ › What's a negative index?", "-1 is the last index; S[:-1] drops it."),
    en("faq#lambda", "FAQ › Why do my lambdas all give 4?", "Each reads x when it is called."),
    en("faq#mean", "FAQ › What does the slash mean?", "It means what a mean slash means."),
  ]);
  const engine = new SearchEngine(site);
  const top = (q: string) => engine.passage(engine.rankLexical(q, 4).ids[0]).id;
  assert.equal(top("How come -7 // 2 gives -4 and not -3?"), "faq#floor");
  assert.equal(top("What does a[-1] mean?"), "faq#index");
});

Deno.test("a question in the other language keeps its operators for a one-language site", () => {
  const pt = buildIndexData([
    passage("faq#piso", "FAQ › Por que -22 // 10 retorna -3?", "A divisão inteira retorna o piso."),
    passage("faq#mod", "FAQ › Como calculo o resto?", "Use 10 % 3, que dá 1."),
  ]);
  const lexicon = parseLexicon("resto\tremainder\n");
  const engine = new SearchEngine(pt, { lexicon: null, defaultLexicon: () => lexicon });
  const ids = engine.rankLexical("Why is x // 2 rounded down?", 2).ids.map((i) =>
    engine.passage(i).id
  );
  assert.deepEqual(ids, ["faq#piso"]);
});

Deno.test("an FAQ entry whose own question matches the visitor's rises above a longer page", () => {
  const faq = buildIndexData([
    passage(
      "guia#a",
      "Guia",
      "Copiar listas: copio a lista com fatia; a lista copiada é outra lista, e copio listas assim.",
    ),
    passage("faq#b", "FAQ › Como copio uma lista?", "Use lista[:] ou list(lista)."),
  ]);
  const rank = (entryQuestion: readonly [number, number]) => {
    const engine = new SearchEngine(faq, { entryQuestion });
    return engine.rankLexical("Como eu copio uma lista?", 2).ids.map((i) => engine.passage(i).id);
  };
  assert.equal(rank([0, 0])[0], "guia#a");
  assert.equal(rank([0.5, 0.2])[0], "faq#b");
});

Deno.test("a Portuguese question over an English-only index is translated by the lexicon", () => {
  const en = buildIndexData([
    { ...passage("fees#a", "Fees", "The tuition is paid monthly."), lang: "en" },
    { ...passage("hours#b", "Hours", "The library opens at nine."), lang: "en" },
  ]);
  const lexicon = parseLexicon("mensalidade\ttuition\nbiblioteca\tlibrary\n");
  const ids = (lex: Lexicon | null) => {
    const engine = new SearchEngine(en, { lexicon: lex, defaultLexicon: null });
    return engine.rankLexical("Quanto custa a mensalidade?", 2).ids.map((i) =>
      engine.passage(i).id
    );
  };
  assert.deepEqual(ids(null), []);
  assert.equal(ids(lexicon)[0], "fees#a");
});

Deno.test("a question with no function word is read in the language whose words it uses", async () => {
  const en = buildIndexData([
    {
      ...passage("faq#tuple", "FAQ › Why are there tuples and lists?", "A tuple is fixed."),
      lang: "en",
    },
    { ...passage("faq#other", "FAQ › What is Python?", "A language."), lang: "en" },
  ]);
  const lexicon = parseLexicon("tupla\ttuple\nlista\tlist\n");
  const engine = new SearchEngine(en, { lexicon: null, defaultLexicon: () => lexicon });
  // "tupla vs lista?" has no word the language detector knows: its words are Portuguese.
  const asked = await engine.search("tupla vs lista?", { k: 2 });
  assert.equal(asked.passages[0]?.id, "faq#tuple");
  assert.equal(asked.translatedFrom, "pt");
  // A question in the site's own words is not translated, and says so by saying nothing.
  const own = await engine.search("tuple vs list?", { k: 2 });
  assert.equal(own.passages[0]?.id, "faq#tuple");
  assert.equal(own.translatedFrom, undefined);
});

/**
 * An English site where a guide's BM25 beats the FAQ entry asked about ("How do I copy a
 * list?"), and a lexicon for the Portuguese question.
 */
function copyListSite() {
  const en = buildIndexData([
    {
      ...passage(
        "guide#a",
        "Guide",
        "Copying lists: copy a list with a slice; a copied list is another list, copy lists so.",
      ),
      lang: "en",
    },
    { ...passage("faq#b", "FAQ › How do I copy a list?", "Use list[:] or list(x)."), lang: "en" },
  ]);
  return { en, lexicon: parseLexicon("copiar\tcopy\nlista\tlist\n") };
}

Deno.test("a translated question lifts the English FAQ entry whose own question it matches", () => {
  const { en, lexicon } = copyListSite();
  const rank = (entryQuestion: readonly [number, number]) => {
    const engine = new SearchEngine(en, { lexicon, entryQuestion });
    return engine.rankLexical("Como eu copiar uma lista?", 2).ids.map((i) => engine.passage(i).id);
  };
  assert.equal(rank([0, 0])[0], "guide#a");
  assert.equal(rank([0.5, 0.2])[0], "faq#b");
});

Deno.test("match: an asking verb the site lacks does not count against the question", async () => {
  const faq = buildIndexData([
    passage("faq#copia", "FAQ › Como copio um objeto?", "Use copy.copy ou copy.deepcopy."),
    passage("faq#lista", "FAQ › Como ordeno uma lista?", "Use sorted(lista)."),
  ]);
  const engine = new SearchEngine(faq);
  const best = async (q: string) => (await engine.search(q, { k: 1 })).passages[0].match!;
  // "clono" is the visitor's word for the site's "copio": the question is about objects.
  assert.equal(await best("Como eu clono um objeto?"), 1);
  // An unknown word that is not the asking verb still weighs ("gato" is asked about).
  assert.ok((await best("Como eu clono o gato do objeto?")) < 1);
  assert.ok((await best("Clono um objeto?")) < 1);
});

Deno.test("a Portuguese question's function words match nothing on an English-only site", () => {
  // "o" is Portuguese's article and, in "I/O", a word of the English page.
  const en = buildIndexData([
    {
      ...passage(
        "tk#a",
        "FAQ › Can I have Tk events handled while waiting for I/O?",
        "On Unix, yes.",
      ),
      lang: "en",
    },
    {
      ...passage("faq#b", "FAQ › Can I delete Python?", "To uninstall it, use the installer."),
      lang: "en",
    },
  ]);
  const lexicon = parseLexicon("desinstalar\tuninstall\n");
  const engine = new SearchEngine(en, { lexicon: null, defaultLexicon: () => lexicon });
  const ids = engine.rankLexical("Posso desinstalar o Python?", 2).ids.map((i) =>
    engine.passage(i).id
  );
  assert.deepEqual(ids, ["faq#b"]);
});

Deno.test("a translated question's opening modal is no word the site lacks", async () => {
  const en = buildIndexData([
    {
      ...passage("faq#b", "FAQ › Can I delete Python?", "Yes, delete it with its installer."),
      lang: "en",
    },
    { ...passage("faq#c", "FAQ › What is Python?", "A language."), lang: "en" },
  ]);
  const lexicon = parseLexicon("apagar\tdelete\n");
  const engine = new SearchEngine(en, { lexicon: null, defaultLexicon: () => lexicon });
  // "Posso" frames the question, as "Can I" does: the page holds everything it asks.
  const { passages } = await engine.search("Posso apagar o Python?", { k: 1 });
  assert.equal(passages[0]?.id, "faq#b");
  assert.equal(passages[0]?.match, 1);
});

Deno.test("on a bilingual site a translation's senses do not let an off-topic question match", async () => {
  const site = buildIndexData([
    passage("faturas#numero", "Faturas", "O número do serviço vem na fatura, com o telefone."),
    {
      ...passage("about#a", "About", "The assistant answers questions about this site."),
      lang: "en",
    },
  ]);
  const lexicon = parseLexicon("serviço\tservice\nnúmero\tnumber\ntelefone\tphone\n");
  const engine = new SearchEngine(site, { lexicon });
  // Its words meet the Portuguese page through their senses, but the site's English pages
  // name none of them: the site does not speak of customer service.
  const off = await engine.search("What is your customer service phone number?", { k: 2 });
  assert.equal(off.passages[0]?.id, "faturas#numero");
  assert.ok(off.passages[0].match! < 0.54, `match ${off.passages[0].match}`);
  // A question whose words the English pages hold too is matched through the translation.
  const covered = await engine.search("Which questions does the assistant answer?", { k: 2 });
  assert.equal(covered.passages[0]?.id, "about#a");
  assert.ok(covered.passages[0].match! >= 0.54);
});

Deno.test("an English contraction's clitic is no query word", () => {
  const en = buildIndexData([
    {
      ...passage("code#d", "Dictionaries", "Here d is a dict: d = {}, d[k] = v, len(d)."),
      lang: "en",
    },
    {
      ...passage("faq#tools", "FAQ › Which tools do you recommend?", "Pylint and Pyflakes."),
      lang: "en",
    },
  ]);
  const engine = new SearchEngine(en);
  const ids = engine.rankLexical("Any checkers you'd recommend?", 2).ids.map((i) =>
    engine.passage(i).id
  );
  // "you'd" split at the apostrophe left "d", the dictionary page's variable.
  assert.deepEqual(ids, ["faq#tools"]);
});

Deno.test("a translated question's top passages do not depend on how many are asked for", () => {
  const { en, lexicon } = copyListSite();
  const engine = new SearchEngine(en, { lexicon });
  const top = (limit: number) =>
    engine.rankLexical("Como eu copiar uma lista?", limit).ids.map((i) => engine.passage(i).id);
  // Asked for one, the entry lift once had only the first BM25 candidate to reorder.
  assert.deepEqual(top(1), ["faq#b"]);
  assert.deepEqual(top(2), ["faq#b", "guide#a"]);
});
