import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distinctPairs, helpPairs, helpParagraphs, withoutMnemonics } from "./libreoffice_pairs.ts";
import { tempDir } from "@/tests/support/temp.ts";

const page = (lang: string, paragraphs: Record<string, string>) =>
  `<!DOCTYPE html><html lang="${lang}"><body>${
    Object.entries(paragraphs).map(([id, html]) => `<p id="${id}" class="paragraph">${html}</p>`)
      .join("")
  }<p>no id</p></body></html>`;

Deno.test("helpParagraphs: the text of each paragraph with a help id, tags and spacing removed", () => {
  const html = page("en-US", {
    par_id1: 'Press <span class="keycode">Enter</span>\n  to search.',
    hd_id2: "Find Bar",
  });
  assert.deepEqual(
    helpParagraphs(html),
    new Map([["par_id1", "Press Enter to search."], ["hd_id2", "Find Bar"]]),
  );
});

Deno.test("helpPairs: paragraphs of the same page and id, untranslated ones and lone pages left out", () => {
  const dir = tempDir();
  const write = (lang: string, name: string, html: string) => {
    mkdirSync(join(dir, lang, "text"), { recursive: true });
    writeFileSync(join(dir, lang, "text", name), html);
  };
  write(
    "en-US",
    "find.html",
    page("en-US", { par_id1: "Find text", par_id2: "LibreOffice", par_id3: "Only here" }),
  );
  write(
    "pt-BR",
    "find.html",
    page("pt-BR", { par_id1: "Localizar texto", par_id2: "LibreOffice" }),
  );
  write("en-US", "lone.html", page("en-US", { par_id1: "Never translated" }));
  assert.deepEqual(helpPairs(dir), [["Localizar texto", "Find text"]]);
  assert.deepEqual(distinctPairs([["a", "b"], ["a", "b"], ["a", "c"]]), [["a", "b"], ["a", "c"]]);
});

Deno.test('withoutMnemonics: a dialog\'s "_" and a menu\'s "~" leave the word whole', () => {
  // "E_liminar" / "E_xcluir" were read as "e" + "liminar" / "xcluir", and the variant table
  // learned "liminar" → "xcluir"; the lexicon had "gura" → "ima" from "Fi_gura" / "Ima_ge".
  assert.equal(withoutMnemonics("E_liminar"), "Eliminar");
  assert.equal(withoutMnemonics("_Salvar"), "Salvar");
  assert.equal(withoutMnemonics("Fi_gura e Ima~gem"), "Figura e Imagem");
  // Not a mnemonic: an underscore before a digit or doubled.
  assert.equal(withoutMnemonics("x_1 a__b"), "x_1 a__b");
});
