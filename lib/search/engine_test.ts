import assert from "node:assert/strict";
import { SearchEngine } from "./engine.ts";
import { buildIndexData, type PassageInput } from "./index_data.ts";

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
