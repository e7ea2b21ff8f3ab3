import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLexiconFromEnv, parseLexicon, translateQuery, translationGroups } from "./lexicon.ts";
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
  assert.equal(loadLexiconFromEnv({}), null);
  assert.throws(() => loadLexiconFromEnv({ SEARCH_LEXICON: "/nonexistent.tsv" }), /SEARCH_LEXICON/);
});

Deno.test("with a lexicon a Portuguese question finds the page that exists only in English", () => {
  const data = buildIndexData([
    passage("cantina", "pt", "A cantina serve almoço todos os dias."),
    passage("estagio", "pt", "O estágio dura seis meses."),
    passage("fees", "en", "The tuition fee is the price of one semester."),
    passage("campus", "en", "The campus has a library and a gym."),
  ]);
  const q = "Qual é o preço da mensalidade?";
  // Without the lexicon the Portuguese words match no English page: nothing is found.
  assert.deepEqual(new SearchEngine(data).rankLexical(q, 4).ids, []);
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
