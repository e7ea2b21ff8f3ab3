import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  lexiconChoiceFromEnv,
  parseLexicon,
  readShippedLexicon,
  SHIPPED_LEXICON_URL,
  shippedLexicon,
  translateQuery,
  translationGroups,
  vocabularyLang,
} from "./lexicon.ts";
import { buildIndexData, type PassageInput } from "./index_data.ts";
import { SearchEngine } from "./engine.ts";

const TSV = new URL("../../tests/fixtures/lexicon/tiny.tsv", import.meta.url);
const lexicon = parseLexicon(readFileSync(TSV, "utf8"));

const passage = (id: string, lang: "pt" | "en", text: string): PassageInput => ({
  id,
  docId: id,
  title: "",
  url: `/${id}`,
  lang,
  text,
});

Deno.test("parseLexicon reads pairs both ways, folded, and translateQuery skips stopwords", () => {
  assert.deepEqual(lexicon.pt.get("preco"), ["price", "fee"]);
  assert.deepEqual(lexicon.en.get("tuition"), ["mensalidade"]);
  assert.equal(lexicon.en.has("opening hours"), false);
  assert.equal(
    translateQuery("Qual é o preço da mensalidade?", "pt", lexicon),
    "price fee tuition",
  );
});

Deno.test("SEARCH_LEXICON: unset, the shipped lexicon on one-language sites; off, none; a path, the owner's", () => {
  const unset = lexiconChoiceFromEnv({});
  assert.equal(unset.lexicon, null);
  assert.equal(unset.defaultLexicon, shippedLexicon);
  assert.deepEqual(lexiconChoiceFromEnv({ SEARCH_LEXICON: " off " }), {
    lexicon: null,
    defaultLexicon: null,
  });
  const owner = lexiconChoiceFromEnv({ SEARCH_LEXICON: TSV.pathname });
  assert.deepEqual(owner.lexicon?.pt.get("preco"), ["price", "fee"]);
  assert.throws(
    () => lexiconChoiceFromEnv({ SEARCH_LEXICON: "/nonexistent.tsv" }),
    /SEARCH_LEXICON "\/nonexistent.tsv" cannot be read .*set it to "off"/,
  );
});

Deno.test("the shipped lexicon: its license beside it, and the words a site's visitors ask with", () => {
  const text = readFileSync(SHIPPED_LEXICON_URL, "utf8");
  assert.match(text, /^# .*LibreOffice/);
  assert.match(
    readFileSync(new URL("LICENSE-MPL-2.0", SHIPPED_LEXICON_URL), "utf8"),
    /Mozilla Public License Version 2\.0/,
  );
  const shipped = shippedLexicon();
  assert.ok(shipped.pt.size > 5000, `${shipped.pt.size} Portuguese words`);
  for (
    const [pt, en] of [["arquivo", "file"], ["copiar", "copy"], ["aleatorio", "random"], [
      "janela",
      "window",
    ]]
  ) {
    assert.ok(shipped.pt.get(pt)?.includes(en), `${pt} → ${shipped.pt.get(pt)}`);
  }
  assert.ok(shipped.en.get("delete")?.includes("excluir"));
  // Function words are never translated: they would match every page.
  for (const word of ["de", "que", "para"]) assert.equal(shipped.pt.has(word), false, word);
});

Deno.test("a one-language site translates a question in the other language with the shipped lexicon", () => {
  const data = buildIndexData([
    passage("copy", "en", "How do I copy a file? Use shutil.copyfile."),
    passage("random", "en", "The random module picks a random item from a list."),
    passage("window", "en", "A window with a button needs a GUI toolkit."),
  ]);
  const q = "Como faço para copiar um arquivo?";
  // The old engine, like this one without a lexicon, found nothing: no Portuguese word is on the site.
  assert.deepEqual(new SearchEngine(data, { defaultLexicon: null }).rankLexical(q, 3).ids, []);
  assert.equal(new SearchEngine(data).rankLexical(q, 3).ids[0], 0);
  assert.equal(new SearchEngine(data).rankLexical("Como sorteio um item aleatório?", 3).ids[0], 1);
  // A question in the site's own language is not translated.
  const own = "How do I copy a file?";
  assert.deepEqual(
    new SearchEngine(data).rankLexical(own, 3).ids,
    new SearchEngine(data, { defaultLexicon: null }).rankLexical(own, 3).ids,
  );
});

Deno.test("a bilingual site translates with the default lexicon for its pages in one language only", () => {
  const pages = [
    passage("mensalidade", "pt", "A mensalidade tem preço fixo durante o ano."),
    passage("coffee", "en", "The price of a coffee is on the board."),
    passage("library", "en", "The library opens early."),
  ];
  const q = "What is the tuition price?";
  const defaultLexicon = () => lexicon;
  // The Portuguese page holds the whole question: an English visitor finds it.
  assert.deepEqual(
    new SearchEngine(buildIndexData(pages), { defaultLexicon: null }).rankLexical(q, 3).ids,
    [1],
  );
  assert.deepEqual(
    new SearchEngine(buildIndexData(pages), { defaultLexicon }).rankLexical(q, 3).ids,
    [0, 1],
  );
  // An English page that answers as well stays first: the visitor reads their own language.
  const own = [...pages, passage("tuition", "en", "The tuition price is fixed for the year.")];
  const ids = new SearchEngine(buildIndexData(own), { defaultLexicon }).rankLexical(q, 4).ids;
  assert.deepEqual(ids.slice(0, 2), [3, 0]);
});

Deno.test("with a lexicon a Portuguese question finds the page that exists only in English", () => {
  const data = buildIndexData([
    passage("cantina", "pt", "A cantina serve almoço todos os dias."),
    passage("estagio", "pt", "O estágio dura seis meses."),
    passage("fees", "en", "The tuition fee is the price of one semester."),
    passage("campus", "en", "The campus has a library and a gym."),
  ]);
  const q = "Qual é o preço da mensalidade?";
  // Without a lexicon the Portuguese words match no English page: nothing is found.
  assert.deepEqual(new SearchEngine(data, { defaultLexicon: null }).rankLexical(q, 4).ids, []);
  const ids = new SearchEngine(data, { lexicon }).rankLexical(q, 4).ids;
  assert.equal(ids[0], 2);
  // A question in the index's language ranks as before.
  const native = "Quanto tempo dura o estágio?";
  assert.deepEqual(
    new SearchEngine(data, { lexicon }).rankLexical(native, 4).ids,
    new SearchEngine(data).rankLexical(native, 4).ids,
  );
});

Deno.test("a page matching the whole translated question outranks one sharing a word", () => {
  // The English passages share only "price"; the Portuguese page holds the whole question.
  // Fusing by rank alone tied them and kept the English one first.
  const data = buildIndexData([
    passage("mensalidade", "pt", "A mensalidade tem preço fixo durante o ano."),
    passage("coffee", "en", "The price of a coffee is on the board."),
    passage("books", "en", "Books have a price list at the library desk."),
  ]);
  const ids = new SearchEngine(data, { lexicon }).rankLexical("What is the tuition price?", 3).ids;
  assert.equal(ids[0], 0);
});

Deno.test("translationGroups keeps names and loanwords that the lexicon lacks", () => {
  assert.deepEqual(translationGroups("What is the Cloudflare tuition?", "en", lexicon), [
    ["cloudflare"],
    ["mensalidade", "tuition"],
  ]);
});

Deno.test("with a lexicon a question's own-language page is not displaced by its translation", () => {
  // Every English page translates a Portuguese one: a Portuguese question must rank exactly
  // as without the lexicon. Before translations were declared, the English twin of the
  // answer came in through the translated query and pushed the other answers down.
  const pages = [
    passage("mensalidade", "pt", "A mensalidade tem preço fixo durante o ano."),
    passage("biblioteca", "pt", "A biblioteca abre cedo; o preço da cópia é baixo."),
    passage("tuition", "en", "The tuition price is fixed for the year."),
    passage("library", "en", "The library opens early; the price of a copy is low."),
  ];
  const translations = { tuition: "mensalidade", library: "biblioteca" };
  const data = buildIndexData(pages, { translations });
  const q = "Qual é o preço da mensalidade?";
  const plain = new SearchEngine(data).rankLexical(q, 4).ids;
  assert.deepEqual(plain, [0, 1]);
  assert.deepEqual(new SearchEngine(data, { lexicon }).rankLexical(q, 4).ids, plain);
  // A page with no translation is still found from the other language.
  const partial = buildIndexData(pages, { translations: { library: "biblioteca" } });
  const ids = new SearchEngine(partial, { lexicon }).rankLexical(q, 4).ids;
  assert.deepEqual([...ids].sort(), [0, 1, 2]);
});

Deno.test("a word's senses count as one synonym set: a rare wrong sense does not win", () => {
  // "model" has two senses: "modelo" (common in the corpus, the right one) and "esquema"
  // (rare, a database schema). Scored by its best sense, the rare one's IDF put the schema
  // passage first; as one set (summed frequency, union document frequency) the passage
  // that is about models comes first.
  const lex = parseLexicon("modelo\tmodel\nesquema\tmodel\n");
  const data = buildIndexData([
    passage(
      "catalogo",
      "pt",
      "Cada modelo do catálogo tem um preço; o modelo local é um modelo grátis.",
    ),
    passage("resposta", "pt", "O modelo escreve a resposta com as fontes."),
    passage("demora", "pt", "Um modelo maior demora mais para responder."),
    passage("banco", "pt", "O esquema do banco de dados guarda conversas, votos e registros."),
    passage("campus", "en", "The campus has a library and a gym."),
  ]);
  const ids = new SearchEngine(data, { lexicon: lex }).rankLexical("Which is the model?", 5).ids;
  assert.equal(ids[0], 0);
  assert.ok(ids.indexOf(3) > 0);
});

Deno.test("an inflected word the lexicon lacks takes its stem's senses, when asked to", () => {
  const lexicon = parseLexicon("repetido\trepeated\nlista\tlist\n");
  const groups = (byStems: boolean) =>
    translationGroups("listas repetidas", "pt", lexicon, () => false, byStems);
  assert.deepEqual(groups(false), [["listas"], ["repetidas"]]);
  assert.deepEqual(groups(true), [["list", "listas"], ["repeated", "repetidas"]]);
});

Deno.test("vocabularyLang: two words of one language and none of the other tell it", () => {
  const lexicon = parseLexicon("copiar\tcopy\narquivo\tfile\nlista\tlist\nemail\temail\n");
  assert.equal(vocabularyLang("copy file python?", lexicon), "en");
  assert.equal(vocabularyLang("copiar arquivo python?", lexicon), "pt");
  // One word, a word of both sides, or words of both languages: nothing told.
  assert.equal(vocabularyLang("copy?", lexicon), null);
  assert.equal(vocabularyLang("email lista?", lexicon), null);
  assert.equal(vocabularyLang("copiar file lista", lexicon), null);
});

Deno.test("lexicon: a shipped file that cannot be read is an empty lexicon, said with its path", () => {
  const warnings: string[] = [];
  const lexicon = readShippedLexicon(() => {
    throw new Deno.errors.NotCapable("Requires read access");
  }, (message) => warnings.push(message));
  assert.equal(lexicon.pt.size + lexicon.en.size, 0);
  assert.equal(vocabularyLang("copy file python?", lexicon), null);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /lexicon_pt_en\.tsv cannot be read \(Requires read access\)/);
});
