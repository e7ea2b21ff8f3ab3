/** The Postgres search on a real server (SEARCH_DATABASE_URL_TEST; skipped without it). */
import assert from "node:assert/strict";
import { hasPgvector, PG_URL, pgliteServer, pgSchema } from "@/tests/support/pg.ts";
import { connectPg, type Sql } from "./client.ts";
import type { Embedder } from "../embedder.ts";
import type { PassageInput } from "../index_data.ts";
import { indexIntoPg, type PgDocument } from "./pg_index.ts";
import { createPgSiteSearch } from "./pg_search.ts";
import { createExtension, migrate } from "./schema.ts";
import { withPgOwnerAnswers } from "./owner_answers.ts";
import { createOwnerAnswers, type OwnerAnswers } from "@/lib/store/owner_answers.ts";
import { parseLexicon } from "../lexicon.ts";
import { SearchEngine } from "../engine.ts";
import { buildIndexData } from "../index_data.ts";

const ignore = !PG_URL;

function doc(
  id: string,
  url: string | null,
  sections: Array<[string, string]>,
  lang: "pt" | "en" = "pt",
): PgDocument {
  const passages: PassageInput[] = sections.map(([title, text], i) => ({
    id: `${id}#s${i}`,
    docId: id,
    title,
    url: url ? `${url}#s${i}` : null,
    lang,
    text,
  }));
  return { id, contentHash: JSON.stringify(sections), url, lang, passages };
}

const CORPUS = [
  doc("streaming", "/sobre/streaming", [
    [
      "Streaming › Como funciona",
      "As respostas chegam token a token por eventos enviados pelo servidor.",
    ],
    ["Streaming › Retomada", "Uma conexão perdida retoma a resposta do ponto onde parou."],
  ]),
  doc("precos", "/precos", [[
    "Preços",
    "O plano gratuito inclui cem perguntas por dia, sem cartão.",
  ]]),
  doc("interno", null, [[
    "Notas internas",
    "A chave do servidor de preços fica no cofre da equipe.",
  ]]),
  doc("install", "/en/install", [[
    "Install › Uninstalling",
    "To uninstall Python, remove the folder and the PATH entry.",
  ]], "en"),
];

Deno.test({ name: "pg search: the migration can run again", ignore }, async () => {
  const db = await pgSchema("migrate");
  try {
    await migrate(db.sql);
    await migrate(db.sql);
    const [t] = await db.sql`select count(*)::int as n from site_passages`;
    assert.equal(t.n, 0);
  } finally {
    await db.drop();
  }
});

Deno.test({
  name: "pg schema: accented stopwords are stopwords, in a schema of version 1 too",
  ignore,
}, async () => {
  const db = await pgSchema("stop");
  const lexemes = async (sql: typeof db.sql) => {
    const [r] = await sql`select to_tsvector('site_pt', 'Não são só modelos, é já')::text as v`;
    return r.v;
  };
  try {
    // Version 1's configuration: the stop list read after unaccent, where "são" is "sao".
    await db.sql.begin((tx) => createExtension(tx, "unaccent"));
    await db.sql.unsafe("create text search configuration site_pt (copy = portuguese)");
    await db.sql.unsafe(
      "alter text search configuration site_pt alter mapping for hword, hword_part, word " +
        "with unaccent, portuguese_stem",
    );
    // Read on a connection of its own: a backend keeps the configuration it has read.
    const before = connectPg(PG_URL!, { max: 1, schema: db.schema });
    try {
      assert.equal(await lexemes(before), "'ja':6 'model':4 'nao':1 'sao':2 'so':3");
    } finally {
      await before.end({ timeout: 1 });
    }
    await migrate(db.sql);
    assert.equal(await lexemes(db.sql), "'model':4");
    await migrate(db.sql);
    assert.equal(await lexemes(db.sql), "'model':4");
  } finally {
    await db.drop();
  }
});

Deno.test(
  {
    name: "pg search: a word the site spells otherwise (SQLite/sqlite3, email/e-mail) finds it",
    ignore,
  },
  async () => {
    // Both questions found nothing before: the words read as absent from the site.
    const db = await pgSchema("repair");
    try {
      await indexIntoPg(db.sql, [
        ...CORPUS,
        doc(
          "db",
          "/en/db",
          [["Databases", "The sqlite3 module reads and writes database files."]],
          "en",
        ),
        doc("envio", "/envio", [["Envio", "Use o módulo smtplib para enviar um e-mail."]]),
      ]);
      const search = createPgSiteSearch({ sql: db.sql });
      const sqlite = await search.search("Can I use SQLite?", { k: 3 });
      assert.equal(sqlite.passages[0]?.id, "db#s0");
      // Past the offline model's "not covered" gate (0.54): the site has the word.
      assert.ok(sqlite.passages[0].match! > 0.6, `match ${sqlite.passages[0].match}`);
      const mail = await search.search("Como mando email pelo programa?", { k: 3 });
      assert.equal(mail.passages[0]?.id, "envio#s0");
      // A word the site has is not repaired: "preços" stays itself.
      const p = await search.search("preços", { k: 1 });
      assert.equal(p.passages[0].id, "precos#s0");
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: European and Brazilian Portuguese words find each other's pages", ignore },
  async () => {
    // A site written in Portugal ("ficheiro", "ecrã") and one in Brazil ("arquivo", "tela"):
    // the Brazilian visitor's words found nothing on the first before.
    const db = await pgSchema("variants");
    try {
      await indexIntoPg(db.sql, [
        ...CORPUS,
        doc("copia", "/pt/copia", [["Cópia", "Para copiar um ficheiro use o comando cp."]]),
        doc("brilho", "/br/brilho", [["Brilho", "O brilho da tela se ajusta no painel."]]),
      ]);
      const search = createPgSiteSearch({ sql: db.sql });
      const file = await search.search("Como copio um arquivo?", { k: 3 });
      assert.equal(file.passages[0]?.id, "copia#s0");
      assert.ok(file.passages[0].match! > 0.6, `match ${file.passages[0].match}`);
      const screen = await search.search("brilho do ecrã", { k: 3 });
      assert.equal(screen.passages[0]?.id, "brilho#s0");
      assert.ok(screen.passages[0].match! > 0.6, `match ${screen.passages[0].match}`);
    } finally {
      await db.drop();
    }
  },
);

const CODE_FAQ = [
  doc("floor", "/faq/floor", [[
    "FAQ › Why does -22 // 10 return -3?",
    "Integer division returns the floor.",
  ]], "en"),
  doc("index", "/faq/index", [[
    "FAQ › What's a negative index?",
    "-1 is the last index; S[:-1] drops it.",
  ]], "en"),
  doc("lambda", "/faq/lambda", [[
    "FAQ › Why do my lambdas all give 4?",
    "Each reads x when it is called.",
  ]], "en"),
  doc("round", "/faq/round", [[
    "FAQ › How do I round 7.2 to 7?",
    "Use round(7.2), which gives 7, or the int() operator.",
  ]], "en"),
];

Deno.test(
  { name: "pg search: a code question finds the entry by its operator", ignore },
  async () => {
    // Postgres's parser keeps "-1" but drops "//": "the // operator" ranked "int() operator" first.
    const db = await pgSchema("code_terms");
    try {
      await indexIntoPg(db.sql, CODE_FAQ);
      const search = createPgSiteSearch({ sql: db.sql });
      const floor = await search.search("How come -7 // 2 gives -4 and not -3?", { k: 1 });
      assert.equal(floor.passages[0]?.id, "floor#s0");
      const operator = await search.search("What does the // operator do?", { k: 1 });
      assert.equal(operator.passages[0]?.id, "floor#s0");
      const index = await search.search("What does a[-1] mean?", { k: 1 });
      assert.equal(index.passages[0]?.id, "index#s0");
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  {
    name: "pg schema: a version 2 table is given the code terms, and reindexed finds them",
    ignore,
  },
  async () => {
    const db = await pgSchema("code_v2");
    try {
      await migrate(db.sql);
      // Version 2's table: no code column, a tsv of the words alone.
      await db.sql.unsafe(`
        alter table site_passages drop column tsv;
        alter table site_passages drop column code;
        alter table site_passages add column tsv tsvector generated always as (
          to_tsvector('site_en', title) || to_tsvector('site_en', body)) stored;
        insert into site_meta (key, value) values ('schema', '2')
          on conflict (key) do update set value = excluded.value;`);
      await indexIntoPg(db.sql, CODE_FAQ);
      const search = createPgSiteSearch({ sql: db.sql });
      const floor = await search.search("What does the // operator do?", { k: 1 });
      assert.equal(floor.passages[0]?.id, "floor#s0");
      const [idx] = await db.sql`
        select count(*)::int as n from pg_indexes
        where indexname = 'site_passages_tsv' and schemaname = current_schema()`;
      assert.equal(idx.n, 1);
    } finally {
      await db.drop();
    }
  },
);

const JOINED = [
  doc("colon", "/faq/colon", [[
    "FAQ › Por que dois pontos são necessários para as instruções de if/while/def/class?",
    "Para facilitar a leitura.",
  ]]),
  doc("popen", "/faq/popen", [[
    "FAQ › Por que não consigo usar os.read() com os.popen()?",
    "Use o módulo subprocess.",
  ]]),
  doc("dll", "/faq/dll", [[
    "FAQ › Falta a api-ms-win-crt-runtime-l1-1-0.dll?",
    "Instale a atualização.",
  ]]),
];

/** The first passage of each question on Postgres and in the embedded engine. */
async function firstOfBoth(sql: Sql, docs: PgDocument[], questions: string[]) {
  const pg = createPgSiteSearch({ sql });
  const embedded = new SearchEngine(buildIndexData(docs.flatMap((d) => d.passages)));
  const first = async (s: { search: typeof pg.search }, q: string) =>
    (await s.search(q, { k: 1 })).passages[0]?.id;
  return await Promise.all(
    questions.map(async (q) => [await first(pg, q), await first(embedded, q)]),
  );
}

Deno.test(
  {
    name: "pg search: the words of a path, a dotted name or a file are words, as embedded",
    ignore,
  },
  async () => {
    // Postgres's parser read "if/while/def/class", "os.popen" and "….dll" as one lexeme each.
    const db = await pgSchema("joined");
    try {
      await indexIntoPg(db.sql, JOINED);
      const found = await firstOfBoth(db.sql, JOINED, ["while def", "popen", "runtime dll"]);
      assert.deepEqual(found, [
        ["colon#s0", "colon#s0"],
        ["popen#s0", "popen#s0"],
        ["dll#s0", "dll#s0"],
      ]);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg schema: a version 3 table splits joined words and recounts its terms", ignore },
  async () => {
    const db = await pgSchema("joined_v3");
    try {
      await migrate(db.sql);
      // Version 3's tsv: the parser's tokens as they come, passages indexed with it.
      await db.sql.unsafe(`
        alter table site_passages drop column tsv;
        alter table site_passages add column tsv tsvector generated always as (
          to_tsvector('site_pt', title) || to_tsvector('site_pt', body) || code) stored;`);
      await indexIntoPg(db.sql, JOINED, { migrate: false });
      await migrate(db.sql);
      const terms = async (...lexemes: string[]) =>
        (await db.sql`select lexeme, ndoc from site_terms where lexeme = any(${lexemes})
          order by lexeme`).map((r) => `${r.lexeme} ${r.ndoc}`);
      assert.deepEqual(await terms("def", "popen", "if/while/def/class", "os.popen"), [
        "def 1",
        "popen 1",
      ]);
      const found = await firstOfBoth(db.sql, JOINED, ["while def"]);
      assert.deepEqual(found, [["colon#s0", "colon#s0"]]);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: each passage's heading share is the embedded engine's", ignore },
  async () => {
    const docs = [
      doc("modelos", "/modelos", [
        ["Catálogo de modelos", "Três famílias de provedores e seus preços."],
        ["Catálogo de modelos › Qual modelo escolher", "Qualquer um serve para começar."],
      ]),
      doc("dados", "/dados", [["Seus dados › Por quanto tempo ficam guardados", "Trinta dias."]]),
      doc("keys", "/en/keys", [["Setup › Where the model keys go", "In the environment."]], "en"),
    ];
    const db = await pgSchema("heading");
    try {
      await indexIntoPg(db.sql, docs);
      const pg = createPgSiteSearch({ sql: db.sql });
      const embedded = new SearchEngine(buildIndexData(docs.flatMap((d) => d.passages)));
      for (
        const q of [
          "qual modelo escolher no catálogo",
          "preços dos provedores",
          "quanto tempo guardam meus dados?",
          "where do the model keys go?",
        ]
      ) {
        const shares = async (s: Pick<typeof embedded, "search">) =>
          new Map((await s.search(q, { k: 4 })).passages.map((p) => [p.id, p.heading]));
        const [a, b] = [await shares(pg), await shares(embedded)];
        assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort(), q);
        if (!q.startsWith("preços")) assert.ok([...b.values()].some((s) => s! >= 0.5), q);
        for (const [id, share] of b) {
          assert.ok(Math.abs(a.get(id)! - share!) < 0.02, `${q} ${id}: ${a.get(id)} / ${share}`);
        }
      }
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  {
    name: "pg search: a word the site lacks weighs in the match as in the embedded engine",
    ignore,
  },
  async () => {
    // The offline model's gate (lib/models/extractive.ts MIN_MATCH) is calibrated on the embedded
    // engine's match; Postgres weighed an unknown word as a term of no passage, the embedded
    // engine as one of one passage, so the same question matched lower on Postgres.
    const docs = [
      doc("copia", "/faq/copia", [[
        "FAQ › Como copio um objeto?",
        "Use copy.copy ou copy.deepcopy.",
      ]]),
      doc("lista", "/faq/lista", [["FAQ › Como ordeno uma lista?", "Use sorted(lista)."]]),
      doc("email", "/faq/email", [["FAQ › Como envio um email?", "Use o módulo smtplib."]]),
    ];
    const db = await pgSchema("rarest");
    try {
      await indexIntoPg(db.sql, docs);
      const pg = createPgSiteSearch({ sql: db.sql });
      const embedded = new SearchEngine(buildIndexData(docs.flatMap((d) => d.passages)));
      const q = "Como copio um objeto do Django?";
      const [a] = (await pg.search(q, { k: 1 })).passages;
      const [b] = (await embedded.search(q, { k: 1 })).passages;
      assert.equal(a.id, b.id);
      assert.ok(Math.abs(a.match! - b.match!) < 0.02, `Postgres ${a.match}, embedded ${b.match}`);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: the verb a question asks with is no word the site lacks", ignore },
  async () => {
    // As in the embedded engine's match (query_terms.ts askedWords): "clono" and "mandar" are
    // the visitor's words for the site's "copio" and "envio"; counted as words the site lacks,
    // they put the entries that answer under the offline model's gate (0.54).
    const db = await pgSchema("asked_words");
    try {
      await indexIntoPg(db.sql, [
        doc("copia", "/faq/copia", [[
          "FAQ › Como copio um objeto?",
          "Use copy.copy ou copy.deepcopy.",
        ]]),
        doc("email", "/faq/email", [["FAQ › Como envio um email?", "Use o módulo smtplib."]]),
        doc("lista", "/faq/lista", [["FAQ › Como ordeno uma lista?", "Use sorted(lista)."]]),
      ]);
      const search = createPgSiteSearch({ sql: db.sql });
      for (
        const [q, id] of [["Como clono um objeto?", "copia#s0"], [
          "Dá pra mandar email?",
          "email#s0",
        ]]
      ) {
        const { passages } = await search.search(q, { k: 1 });
        assert.equal(passages[0]?.id, id, q);
        assert.ok(passages[0].match! >= 0.54, `${q}: match ${passages[0].match}`);
      }
      // A word the site lacks that is the question's subject still counts: "pizza".
      const { passages } = await search.search("Como peço uma pizza?", { k: 1 });
      assert.ok((passages[0]?.match ?? 0) < 0.54);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: question words and an opening modal are not searched for", ignore },
  async () => {
    // As in the embedded engine (query_terms.ts): "preciso", rare in the prose, put the
    // account entry first, and "quais" and "são" (Postgres drops "sao" only with its accent)
    // counted against the match as words the passage lacks.
    const db = await pgSchema("question_words");
    try {
      const others = ["implantacao", "seguranca", "provedores", "limites"].map((id) =>
        doc(id, `/${id}`, [[id, `A API e a chave do provedor aparecem também em ${id}.`]])
      );
      await indexIntoPg(db.sql, [
        ...others,
        doc("faq", "/faq", [[
          "Perguntas frequentes › Preciso criar uma conta para usar o assistente?",
          "Não há cadastro nem login: um cookie assinado identifica o visitante.",
        ]]),
        doc("como", "/como", [[
          "Como funciona › Modelos com e sem chave",
          "Sem chave de API configurada, o assistente usa o modelo offline; com uma chave de " +
          "API, os modelos do provedor aparecem no seletor.",
        ]]),
      ]);
      const search = createPgSiteSearch({ sql: db.sql });
      const keys = await search.search("Preciso de chave de API?", { k: 2 });
      assert.equal(keys.passages[0]?.id, "como#s0");
      const models = await search.search("Quais são os modelos da API?", { k: 1 });
      assert.equal(models.passages[0]?.id, "como#s0");
      assert.equal(models.passages[0].match, 1);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: a question in the other language than the site's is translated", ignore },
  async () => {
    const db = await pgSchema("cross");
    try {
      await indexIntoPg(db.sql, [
        doc("install", "/en/install", [[
          "FAQ › Can I delete Python?",
          "To uninstall Python, remove the folder and the PATH entry.",
        ]], "en"),
        doc(
          "tk",
          "/en/tk",
          [["FAQ › Can I handle Tk events while waiting for I/O?", "Yes."]],
          "en",
        ),
      ]);
      const lexicon = parseLexicon("desinstalar\tuninstall\npasta\tfolder\n");
      const search = createPgSiteSearch({ sql: db.sql, lexicon: () => lexicon });
      const r = await search.search("Posso desinstalar o Python?", { k: 2 });
      assert.equal(r.passages[0]?.id, "install#s0");
      assert.equal(r.translatedFrom, "pt");
      // Every word found: past the offline model's "not covered" gate.
      assert.equal(r.passages[0].match, 1);
      // A question in the site's own language is not translated.
      const own = await search.search("How do I uninstall Python?", { k: 1 });
      assert.equal(own.passages[0]?.id, "install#s0");
      assert.equal(own.translatedFrom, undefined);
      // Without a lexicon the Portuguese words find nothing but the name ("apagar", the verb
      // asked with, weighs nothing; "pasta" is a word the site lacks).
      const off = createPgSiteSearch({ sql: db.sql, lexicon: null });
      const none = await off.search("Posso apagar a pasta do Python?", { k: 2 });
      assert.equal(none.translatedFrom, undefined);
      assert.ok((none.passages[0]?.match ?? 0) < 0.54);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: a translated word's senses count as one word", ignore },
  async () => {
    const db = await pgSchema("senses");
    try {
      const filler = ["a", "b", "c", "d"].map((id) =>
        doc(id, `/en/${id}`, [[`Page ${id}`, `Nothing about it here, page ${id}.`]], "en")
      );
      await indexIntoPg(db.sql, [
        ...filler,
        // Both senses of "mudar", and no list.
        doc("move", "/en/move", [[
          "Moving",
          "Change how windows move: a window moves as you move it.",
        ]], "en"),
        // One sense of "mudar", and the list asked about.
        doc("edit", "/en/edit", [["Editing", "Change a list in place."]], "en"),
      ]);
      const lexicon = parseLexicon("mudar\tchange\nmudar\tmove\nlista\tlist\n");
      const search = createPgSiteSearch({ sql: db.sql, lexicon: () => lexicon });
      const r = await search.search("Como mudar a lista?", { k: 2 });
      // Summed per sense, the rare "move" outweighed the list the question asks about.
      assert.equal(r.passages[0]?.id, "edit#s0");
      assert.equal(r.passages[0].match, 1);
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg search: ranks, numbers public passages only, resolves seen ids", ignore },
  async () => {
    const db = await pgSchema("rank");
    try {
      await indexIntoPg(db.sql, CORPUS);
      const search = createPgSiteSearch({ sql: db.sql });
      const r = await search.search("como a conexão retoma a resposta?", { k: 3 });
      assert.equal(r.mode, "lexical");
      assert.equal(r.passages[0].id, "streaming#s1");
      assert.equal(r.passages[0].n, 1);
      assert.ok(r.passages[0].match! > 0.5, `match ${r.passages[0].match}`);
      // Accents folded on both sides: "precos" finds "Preços".
      const p = await search.search("precos do plano gratuito");
      assert.equal(p.passages[0].id, "precos#s0");
      const internal = await search.search("chave do cofre da equipe");
      assert.equal(internal.passages[0].id, "interno#s0");
      assert.equal(internal.passages[0].url, null);
      assert.equal(internal.passages[0].n, undefined);
      assert.equal(search.passage("interno#s0")?.text, CORPUS[2].passages[0].text);
      const en = await search.search("how do I uninstall python");
      assert.equal(en.passages[0].id, "install#s0");
      const none = await search.search("pizza margherita");
      assert.equal(none.passages.length, 0);
      assert.deepEqual(search.status(), {
        status: "ok",
        passages: 5,
        documents: 4,
        mode: "lexical",
        embeddingModel: null,
      });
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg index: incremental by hash, deletes, term counts stay exact", ignore },
  async () => {
    const db = await pgSchema("incr");
    try {
      const first = await indexIntoPg(db.sql, CORPUS);
      assert.deepEqual([first.added, first.updated, first.deleted, first.unchanged], [4, 0, 0, 0]);
      const changed = [
        doc("streaming", "/sobre/streaming", [[
          "Streaming",
          "Agora as respostas usam websockets.",
        ]]),
        CORPUS[1],
        CORPUS[3],
      ];
      const second = await indexIntoPg(db.sql, changed);
      assert.deepEqual(
        [second.added, second.updated, second.deleted, second.unchanged, second.passages],
        [0, 1, 1, 2, 1],
      );
      const search = createPgSiteSearch({ sql: db.sql });
      assert.equal((await search.search("websockets")).passages[0].id, "streaming#s0");
      assert.equal((await search.search("retoma conexão perdida")).passages.length, 0);
      assert.equal((await search.search("cofre")).passages.length, 0);
      // The maintained counts equal a count from scratch.
      const drift = await db.sql`
      with fresh as (select word as lexeme, ndoc from ts_stat('select tsv from site_passages'))
      select coalesce(f.lexeme, t.lexeme) as lexeme, f.ndoc as fresh, t.ndoc as kept
      from fresh f full join site_terms t using (lexeme)
      where f.ndoc is distinct from t.ndoc`;
      assert.deepEqual([...drift], []);
      const [meta] = await db.sql`
      select (select value from site_meta where key = 'passages')::text as passages,
             (select value from site_meta where key = 'documents')::text as documents`;
      assert.deepEqual({ ...meta }, { passages: "3", documents: "3" });
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  { name: "pg index: a run cut off midway keeps its batches and resumes", ignore },
  async () => {
    const db = await pgSchema("resume");
    try {
      await assert.rejects(
        indexIntoPg(db.sql, CORPUS, {
          batchDocs: 2,
          onProgress: () => {
            throw new Error("cut off");
          },
        }),
        /cut off/,
      );
      const again = await indexIntoPg(db.sql, CORPUS, { batchDocs: 2 });
      assert.deepEqual([again.added, again.unchanged], [2, 2]);
      const [n] = await db.sql`select count(*)::int as n from site_passages`;
      assert.equal(n.n, 5);
    } finally {
      await db.drop();
    }
  },
);

/** Deterministic vectors: a bag of hashed words, so shared words mean nearby vectors. */
function fakeEmbedder(dims = 16): Embedder {
  return {
    model: "test:bag-of-words",
    embed(values) {
      return Promise.resolve(values.map((v) => {
        const out = new Float32Array(dims);
        for (const w of v.toLowerCase().split(/\W+/).filter(Boolean)) {
          let h = 0;
          for (const c of w) h = (h * 31 + c.charCodeAt(0)) >>> 0;
          out[h % dims] += 1;
        }
        out[0] += 0.01;
        return out;
      }));
    },
  };
}

/** The hybrid test's database: the test server when it has pgvector, else PGlite's. */
async function vectorDatabase() {
  if (await hasPgvector()) {
    const db = await pgSchema("hybrid");
    return { sql: db.sql, close: () => db.drop(), where: "the test server" };
  }
  const lite = await pgliteServer();
  const sql = connectPg(lite.url, { max: 1, statementTimeoutMs: 60_000 });
  return {
    sql,
    where: "PGlite (the test server has no pgvector)",
    async close() {
      await sql.end({ timeout: 1 });
      await lite.close();
    },
  };
}

Deno.test({
  name: "pg search: hybrid with pgvector fuses both rankings",
  // Runs everywhere: on PGlite where no test server with pgvector is set.
  // PGlite's socket server closes its connection after the test's end.
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const db = await vectorDatabase();
  console.log(`pgvector: ${db.where}`);
  try {
    const embedder = fakeEmbedder();
    await indexIntoPg(db.sql, CORPUS, { embedder });
    // The first load builds the HNSW index once, after the rows.
    const [index] = await db.sql`
      select count(*)::int as n from pg_indexes
      where indexname = 'site_passages_embedding' and schemaname = current_schema()`;
    assert.equal(index.n, 1);
    const search = createPgSiteSearch({ sql: db.sql, embedder, deadlineMs: 30_000 });
    const r = await search.search("plano gratuito", { k: 3 });
    assert.equal(r.mode, "hybrid");
    assert.equal(r.passages[0].id, "precos#s0");
    assert.equal(r.passages[0].ranks.bm25, 1);
    assert.notEqual(r.passages[0].ranks.dense, null);
    const status = search.status();
    assert.equal(status.status === "ok" && status.mode, "hybrid");
    await t.step("another model's index is searched lexically", async () => {
      const other = createPgSiteSearch({
        sql: db.sql,
        embedder: { ...fakeEmbedder(), model: "test:other" },
        deadlineMs: 30_000,
      });
      assert.equal((await other.search("plano gratuito")).mode, "lexical");
    });
  } finally {
    await db.close();
  }
});

/**
 * The Postgres search with the owner's `answers`, as a fresh isolate builds it. A loaded machine
 * must not make the copy miss the search that follows a save.
 */
function answeredSearch(sql: Sql, answers: OwnerAnswers) {
  return withPgOwnerAnswers(createPgSiteSearch({ sql }), answers, { syncWaitMs: 30_000 });
}

Deno.test({
  name: "pg search: the owner's answers go to the database, lifted, and leave it",
  ignore,
}, async () => {
  const db = await pgSchema("owner");
  const kv = await Deno.openKv(":memory:");
  try {
    await indexIntoPg(db.sql, CORPUS);
    const answers = createOwnerAnswers(kv);
    const search = answeredSearch(db.sql, answers);
    const saved = await answers.save({
      question: "Vocês aceitam pagamento por boleto?",
      answer: "Sim: o boleto vence em três dias úteis.",
      lang: "pt",
    });
    const r = await search.search("aceitam pagamento por boleto?");
    assert.equal(r.passages[0].id, `respostas/${saved!.id}#resposta`);
    assert.equal(r.passages[0].url, `/respostas/${saved!.id}`);
    // Another process sees it in the same tables.
    const [row] = await db
      .sql`select count(*)::int as n from site_passages where id like 'respostas/%'`;
    assert.equal(row.n, 1);
    // The corpus run leaves the answers alone (its scope is the corpus).
    const rerun = await indexIntoPg(db.sql, CORPUS, {
      scope: { prefix: "respostas/", inside: false },
    });
    assert.equal(rerun.deleted, 0);
    await answers.remove(saved!.id);
    assert.equal((await search.search("pagamento por boleto")).passages.length, 0);
  } finally {
    kv.close();
    await db.drop();
  }
});

Deno.test({
  name: "pg search: a wording the owner answered with a page finds that page, read live",
  ignore,
}, async () => {
  const db = await pgSchema("pointer");
  const kv = await Deno.openKv(":memory:");
  try {
    await indexIntoPg(db.sql, CORPUS);
    const answers = createOwnerAnswers(kv);
    const search = answeredSearch(db.sql, answers);
    const question = "A conversa some se a internet cair?";
    assert.notEqual((await search.search(question)).passages[0]?.id, "streaming#s1");
    await answers.save({
      question,
      answer: "",
      lang: "pt",
      target: { id: "streaming#s1", title: "Streaming › Retomada", url: "/sobre/streaming#s1" },
    });
    // A fresh isolate: the page is read from the database, not from passages seen before.
    const fresh = answeredSearch(db.sql, answers);
    for (const s of [search, fresh]) {
      const { passages } = await s.search(question);
      assert.equal(passages[0].id, "streaming#s1");
      assert.equal(passages[0].url, "/sobre/streaming#s1");
      assert.match(passages[0].text, /retoma a resposta/);
      assert.equal(passages.filter((p) => p.id === "streaming#s1").length, 1);
      assert.ok(!passages.some((p) => p.id.startsWith("respostas/")));
      // Typed in a hurry ("intenret"): still the owner's wording, still the page.
      const typo = await s.search("A conversa some se a intenret cair?");
      assert.equal(typo.passages[0].id, "streaming#s1");
      // A question sharing words with the wording, not alike to it: not the page, not raw.
      const other = await s.search("internet caindo");
      assert.ok(!other.passages.some((p) => p.id === "streaming#s1" || p.id.startsWith("resp")));
    }
    // The page gone from the index: the wording finds nothing of it, and nothing raw.
    await db.sql`delete from site_passages where id = 'streaming#s1'`;
    const after = await answeredSearch(db.sql, answers).search(question);
    assert.ok(
      !after.passages.some((p) => p.id.startsWith("respostas/") || p.id === "streaming#s1"),
    );
  } finally {
    kv.close();
    await db.drop();
  }
});
