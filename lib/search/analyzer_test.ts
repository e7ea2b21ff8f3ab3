import assert from "node:assert/strict";
import { analyze, codeTerms, fold, isStopword, tokenize } from "./analyzer.ts";

Deno.test("fold: NFKC, case and accents", () => {
  assert.equal(fold("INFORMAÇÕES Ação ﬁm"), "informacoes acao fim");
  assert.equal(fold("e\u0301"), "e"); // decomposed accent
  // ASCII takes a shorter path to the same result.
  for (const ascii of ["Copy FILE.txt", "x = a[-1] // 2", "", "\t\u007f"]) {
    assert.equal(fold(ascii), ascii.normalize("NFKC").toLowerCase());
  }
});

Deno.test("tokenize keeps numbers and splits underscores and punctuation", () => {
  assert.deepEqual(tokenize("ANALISE_DE_SISTEMAS, 2024 e 3,5"), [
    "analise",
    "de",
    "sistemas",
    "2024",
    "e",
    "3",
    "5",
  ]);
});

Deno.test("pt: accents do not matter, plurals and verb forms conflate", () => {
  const a = (s: string) => analyze(s, "pt");
  assert.deepEqual(a("avaliações"), a("avaliacao"));
  assert.deepEqual(a("informações"), a("informacoes"));
  assert.deepEqual(a("matrículas"), a("matricula"));
  assert.deepEqual(a("cursos"), a("curso"));
  assert.deepEqual(a("estudou"), a("estudando"));
  assert.deepEqual(a("professores"), a("professor"));
});

Deno.test("pt: stopwords go, content words and numbers stay", () => {
  assert.deepEqual(analyze("Qual é o prazo da matrícula em 2024?", "pt"), [
    "praz",
    "matricul",
    "2024",
  ]);
  assert.ok(isStopword("nao", "pt"));
  assert.ok(!isStopword("conselho", "pt")); // stopwords-iso lists it; the analyzer keeps it
});

Deno.test('pt: a tonic pronoun is a stopword as English "me" is; "consigo" and "TI" stay', () => {
  assert.deepEqual(analyze("Qual modelo é melhor para mim?", "pt"), ["model", "melhor"]);
  assert.deepEqual(analyze("Fale comigo", "pt"), ["fal"]);
  assert.ok(isStopword("me", "en"));
  assert.deepEqual(analyze("Não consigo falar com a equipe de TI", "pt"), [
    "consig",
    "fal",
    "equip",
    "ti",
  ]);
});

Deno.test("operators and negative numbers are terms; a URL, === and a date are not", () => {
  assert.deepEqual(analyze("How come -7 // 2 gives -4?", "en"), [
    "come",
    "7",
    "2",
    "give",
    "4",
    "-7",
    "//",
    "-4",
  ]);
  assert.deepEqual(codeTerms('a[-1], S[:-1], x=-2, f(**kw), a != b, "?:"'), [
    "-1",
    "-1",
    "-2",
    "**",
    "!=",
    "?:",
  ]);
  assert.deepEqual(codeTerms("https://python.org, a === b, 2020-01-02, l1-1-0.dll, - 3 itens"), []);
});

Deno.test("en: plurals, verb forms and stopwords", () => {
  const a = (s: string) => analyze(s, "en");
  assert.deepEqual(a("universities"), a("university"));
  assert.deepEqual(a("running runs"), ["run", "run"]);
  assert.deepEqual(a("What is the privacy of the chats?"), ["privaci", "chat"]);
  assert.deepEqual(a("Café"), ["cafe"]);
  assert.deepEqual(a("30 days"), a("30 day"));
  assert.equal(a("30 days")[0], "30");
});

Deno.test("pt: a European word is read as the Brazilian one; Brazilian words stay apart", () => {
  // A site written in Portugal and a Brazilian visitor's words meet.
  assert.deepEqual(analyze("ficheiro", "pt"), analyze("arquivo", "pt"));
  assert.deepEqual(analyze("Os ficheiros no ecrã", "pt"), analyze("Os arquivos na tela", "pt"));
  assert.deepEqual(analyze("registo", "pt"), analyze("registro", "pt"));
  // A word Brazilian text uses too keeps its own meaning ("devolver as provas").
  assert.notDeepEqual(analyze("devolver", "pt"), analyze("retornar", "pt"));
  assert.notDeepEqual(analyze("utilizar", "pt"), analyze("usuário", "pt"));
  // No pair made up by a dialog's keyboard mnemonic ("E_liminar" / "E_xcluir"): a court's
  // "liminar" stays a word of its own, one with its plural.
  assert.deepEqual(analyze("liminar", "pt"), analyze("liminares", "pt"));
  // English is read as English: "ficheiro" is no English word to map.
  assert.deepEqual(analyze("file", "en"), ["file"]);
});
