import assert from "node:assert/strict";
import { proximityBonus } from "./proximity.ts";

Deno.test("proximityBonus rewards query terms close together, within one field only", () => {
  const idf = new Map([["public", 2], ["sit", 1]]);
  const near = proximityBonus(idf, ["", "Para publicar o site, rode o comando."], "pt");
  const far = proximityBonus(
    idf,
    ["", "Para publicar rode um comando longo com muitas opções e então o site aparece."],
    "pt",
  );
  assert.ok(near > 0 && far === 0, `${near} ${far}`);
  assert.equal(proximityBonus(idf, ["Publicar", "site novo"], "pt"), 0);
  assert.equal(proximityBonus(new Map([["sit", 1]]), ["o site o site"], "pt"), 0);
});
