import assert from "node:assert/strict";
import { variantPairs } from "./lexicon_pt_variants.ts";
import type { TextPair } from "./lexicon/libreoffice_pairs.ts";

/** The same strings translated for Portugal and for Brazil, each a few times over. */
function texts(): TextPair[] {
  const out: TextPair[] = [];
  for (const thing of ["documento", "relatório", "projeto", "modelo"]) {
    out.push([`Abra o ficheiro do ${thing}`, `Abra o arquivo do ${thing}`]);
    out.push([`Guarde o ${thing} no ficheiro`, `Salve o ${thing} no arquivo`]);
    out.push([`O ${thing} aparece no ecrã`, `O ${thing} aparece na tela`]);
    out.push([`Use a função SOMA no ${thing}`, `Use a função SUM no ${thing}`]);
    out.push([`Devolve o ${thing} pedido`, `Retorna o ${thing} pedido`]);
  }
  return out;
}

Deno.test("variant pairs: European words Brazilian text never uses, with the Brazilian word", () => {
  const pairs = variantPairs(texts(), {
    // "devolve" and "guarde" are Brazilian words too ("devolver as provas", "guarde o
    // troco"); "ficheiro" and "ecrã" are not. SOMA is a function's name, "sum" English.
    brazilian: new Map([["devolv", 3], ["guard", 9], ["arquiv", 40], ["tel", 12]]),
    english: (w) => w === "sum",
  });
  assert.deepEqual(pairs, [["ecrã", "tela"], ["ficheiro", "arquivo"]]);
});
