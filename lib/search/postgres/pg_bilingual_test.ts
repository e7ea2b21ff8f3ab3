/**
 * The Postgres search on a bilingual site translates as the embedded engine does
 * (SEARCH_DATABASE_URL_TEST; skipped without it).
 */
import assert from "node:assert/strict";
import { PG_URL, pgSchema } from "@/tests/support/pg.ts";
import { SearchEngine } from "../engine.ts";
import { buildIndexData, type PassageInput } from "../index_data.ts";
import { parseLexicon } from "../lexicon.ts";
import type { SearchResult } from "../types.ts";
import type { Sql } from "./client.ts";
import { indexIntoPg, type PgDocument } from "./pg_index.ts";
import { createPgSiteSearch } from "./pg_search.ts";
import { migrate } from "./schema.ts";

const ignore = !PG_URL;

function page(
  id: string,
  lang: "pt" | "en",
  title: string,
  text: string,
  translationOf?: string,
): PgDocument {
  const passages: PassageInput[] = [
    { id: `${id}#s0`, docId: id, title, url: `/${id}#s0`, lang, text },
  ];
  return {
    id,
    contentHash: text,
    url: `/${id}`,
    lang,
    passages,
    ...(translationOf ? { translationOf } : {}),
  };
}

/** A site in Portuguese, partly translated: `pricing` translates `precos`. */
const SITE = [
  page(
    "historico",
    "pt",
    "FAQ › Posso voltar a uma versão anterior do desenho?",
    "Sim: o histórico guarda cada versão anterior do desenho.",
  ),
  page("precos", "pt", "Preços", "O plano gratuito inclui cem desenhos por dia."),
  page("pricing", "en", "Pricing", "The free plan includes a hundred drawings a day.", "precos"),
  page("export", "en", "Export", "Export a drawing as PNG or SVG."),
  page(
    "suporte",
    "pt",
    "Suporte",
    "O serviço responde por email; o número do pedido vem no recibo.",
  ),
];

const LEXICON = parseLexicon(
  "desenho\tdrawing\nversão\tversion\nanterior\tolder\nplano\tplan\ngratuito\tfree\n" +
    "serviço\tservice\nnúmero\tnumber\ntelefone\tphone\ncliente\tcustomer\n",
);

/** The embedded engine over the same site and lexicon. */
function embedded(docs: PgDocument[]): SearchEngine {
  const translations: Record<string, string> = {};
  for (const d of docs) if (d.translationOf) translations[d.id] = d.translationOf;
  return new SearchEngine(buildIndexData(docs.flatMap((d) => d.passages), { translations }), {
    lexicon: null,
    defaultLexicon: () => LEXICON,
  });
}

const ids = (r: SearchResult) => r.passages.map((p) => p.id);

function pgSearch(sql: Sql) {
  return createPgSiteSearch({ sql, lexicon: () => LEXICON });
}

Deno.test(
  { name: "pg search: a bilingual site finds its pages in one language only", ignore },
  async () => {
    const db = await pgSchema("bilingual");
    try {
      await indexIntoPg(db.sql, SITE);
      const q = "Can I go back to an older version of a drawing?";
      const [pg, emb] = [
        await pgSearch(db.sql).search(q, { k: 3 }),
        await embedded(SITE).search(q, { k: 3 }),
      ];
      // The Portuguese-only page answers, found through the translation, as embedded.
      assert.equal(pg.passages[0]?.id, "historico#s0");
      assert.equal(emb.passages[0]?.id, "historico#s0");
      // The Portuguese version of an English page is not taken from the translated side.
      assert.ok(!ids(pg).includes("precos#s0"), ids(pg).join(", "));
      assert.ok(ids(pg).includes("pricing#s0"), ids(pg).join(", "));
      // The result carries the translation for the offline model; the question's language is
      // one of the site's, so there is no `translatedFrom`.
      assert.deepEqual(pg.translation, emb.translation);
      assert.deepEqual(pg.translation?.from, "en");
      assert.equal(pg.translatedFrom, undefined);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  {
    name: "pg search: a page found through the translation is matched as embedded, capped",
    ignore,
  },
  async () => {
    // The senses of "service" and "number" meet common words of the Portuguese page; the site
    // holds none of the question's words in English, so its match stays under the gate (0.54).
    const db = await pgSchema("bilingual_gate");
    try {
      await indexIntoPg(db.sql, SITE);
      const q = "What is your customer service phone number?";
      const [a] = (await pgSearch(db.sql).search(q, { k: 1 })).passages;
      const [b] = (await embedded(SITE).search(q, { k: 1 })).passages;
      assert.equal(a?.id, "suporte#s0");
      assert.equal(b?.id, "suporte#s0");
      assert.ok(Math.abs(a.match! - b.match!) < 0.02, `Postgres ${a.match}, embedded ${b.match}`);
      assert.ok(a.match! < 0.54, `match ${a.match}`);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  {
    name: "pg schema: a table without translation_of is searched, then indexed, translations kept",
    ignore,
  },
  async () => {
    const db = await pgSchema("twins_v3");
    try {
      await migrate(db.sql);
      // The table as indexed before the column: no translation stored, no count in site_meta.
      await db.sql.unsafe(`
        drop index site_documents_translation;
        alter table site_documents drop column translation_of;`);
      const untranslated = SITE.map(({ translationOf: _, ...d }) => d);
      await indexIntoPg(db.sql, untranslated, { migrate: false });
      const q = "Can I go back to an older version of a drawing?";
      // A server that does not migrate still searches it: it never asks for the column.
      const before = await pgSearch(db.sql).search(q, { k: 3 });
      assert.equal(before.passages[0]?.id, "historico#s0");
      const report = await indexIntoPg(db.sql, SITE);
      // Only the document that declares a translation is rewritten.
      assert.deepEqual([report.updated, report.unchanged], [1, SITE.length - 1]);
      const rows = await db.sql`
        select id, translation_of from site_documents where translation_of is not null`;
      assert.deepEqual(rows.map((r) => [r.id, r.translation_of]), [["pricing", "precos"]]);
      const [meta] = await db.sql`select value from site_meta where key = 'translations'`;
      assert.equal(Number(meta.value), 1);
      const after = await pgSearch(db.sql).search(q, { k: 3 });
      assert.ok(!ids(after).includes("precos#s0"), ids(after).join(", "));
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: a one-language site's translated question carries its translation", ignore },
  async () => {
    const db = await pgSchema("one_lang_translation");
    try {
      const site = SITE.filter((d) => d.lang === "pt");
      await indexIntoPg(db.sql, site);
      const q = "Can I go back to an older version of a drawing?";
      const pg = await pgSearch(db.sql).search(q, { k: 1 });
      const emb = await embedded(site).search(q, { k: 1 });
      assert.equal(pg.translatedFrom, "en");
      assert.ok(pg.translation?.words.length, "no translation");
      assert.deepEqual(pg.translation, emb.translation);
    } finally {
      await db.drop();
    }
  },
);
