/**
 * A translated question's `match` on Postgres follows the embedded engine's (engine.ts
 * #matcher), whose scale the offline model's "not covered" gate (MIN_MATCH 0.54) is calibrated
 * on (SEARCH_DATABASE_URL_TEST; skipped without it).
 */
import assert from "node:assert/strict";
import { PG_URL, pgSchema } from "@/tests/support/pg.ts";
import { SearchEngine } from "../engine.ts";
import { buildIndexData, type PassageInput } from "../index_data.ts";
import { parseLexicon } from "../lexicon.ts";
import { indexIntoPg, type PgDocument } from "./pg_index.ts";
import { createPgSiteSearch } from "./pg_search.ts";

const ignore = !PG_URL;

function page(id: string, title: string, text: string): PgDocument {
  const passages: PassageInput[] = [
    { id: `${id}#s0`, docId: id, title, url: `/${id}#s0`, lang: "en", text },
  ];
  return { id, contentHash: text, url: `/${id}`, lang: "en", passages };
}

/** An English-only site: "change" is on most pages, "move" on one. */
const SITE = [
  page("copy", "FAQ › How do I copy an object?", "Use copy.copy or copy.deepcopy."),
  page("bin", "FAQ › Where do deleted files go?", "Files you delete go to the recycle bin."),
  page("move", "FAQ › Can windows move?", "A window moves as you drag it."),
  page("tuple", "FAQ › Tuples and lists", "A tuple cannot change; a list can."),
  ...["a", "b", "c"].map((id) => page(id, `Change log ${id}`, `What changed in release ${id}.`)),
];

const LEXICON = parseLexicon(
  "objeto\tobject\nlixeira\trecycle bin\nmudar\tchange\nmudar\tmove\ntupla\ttuple\n" +
    "lista\tlist\njanela\twindow\narquivo\tfile\n",
);

Deno.test(
  { name: "pg search: a translated question matches as in the embedded engine", ignore },
  async () => {
    const db = await pgSchema("translated_match");
    try {
      await indexIntoPg(db.sql, SITE);
      const pg = createPgSiteSearch({ sql: db.sql, lexicon: () => LEXICON });
      const embedded = new SearchEngine(buildIndexData(SITE.flatMap((d) => d.passages)), {
        defaultLexicon: () => LEXICON,
      });
      for (
        const [q, id] of [
          // "clono", the verb asked with, weighed as a word the site lacks: 0.45 before.
          ["Como clono um objeto?", "copy#s0"],
          // A phrase sense ("recycle bin") was no sense at all: "lixeira" weighed as missing.
          ["Cadê a lixeira dos arquivos?", "bin#s0"],
          // A word weighs its rarest sense's IDF ("move"), not that of all its senses pooled.
          ["A janela pode mudar de tamanho?", "move#s0"],
          // No function word of either language: its words tell it is Portuguese.
          ["tupla vs lista?", "tuple#s0"],
        ]
      ) {
        const [a] = (await pg.search(q, { k: 1 })).passages;
        const [b] = (await embedded.search(q, { k: 1 })).passages;
        assert.equal(b?.id, id, `embedded, ${q}`);
        assert.equal(a?.id, id, `Postgres, ${q}`);
        assert.ok(
          Math.abs(a.match! - b.match!) < 0.02,
          `${q}: Postgres ${a.match}, embedded ${b.match}`,
        );
      }
      // A word the site lacks that is the question's subject still counts against it.
      const pizza = (await pg.search("Como peço um objeto de pizza?", { k: 1 })).passages[0];
      assert.equal(pizza?.id, "copy#s0");
      assert.ok(pizza.match! < 0.54, `pizza: ${pizza.match}`);
    } finally {
      await db.drop();
    }
  },
);
