/**
 * Faults of the Postgres search on a real server: slow past the deadline, a connection lost
 * midway, the server down at start, killed during an indexing batch and back: each a clear
 * "search unavailable" (never a crash, a 5xx or a hang), history kept, and recovery without a
 * restart. Needs SEARCH_DATABASE_URL_TEST and the PostgreSQL server binaries (.ci/run).
 */
import assert from "node:assert/strict";
import { SearchUnavailableError } from "@/lib/search/errors.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { connectPg } from "@/lib/search/postgres/client.ts";
import { indexIntoPg, type PgDocument } from "@/lib/search/postgres/pg_index.ts";
import { createPgSiteSearch } from "@/lib/search/postgres/pg_search.ts";
import { parseLexicon } from "@/lib/search/lexicon.ts";
import { ownCluster, PG_URL, pgSchema } from "../support/pg.ts";
import { startTestServer } from "../support/server.ts";
import {
  CookieJar,
  newChatId,
  postChat,
  readSse,
  streamedText,
  testConfig,
  userMessage,
} from "../support/chat_client.ts";

const ignore = !PG_URL;

function docs(count: number): PgDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `doc${i}`,
    contentHash: `v1-${i}`,
    url: `/p/${i}`,
    lang: "pt" as const,
    passages: [{
      id: `doc${i}#a`,
      docId: `doc${i}`,
      title: `Página ${i} › Planos`,
      url: `/p/${i}#a`,
      lang: "pt" as const,
      text: i === 0
        ? "O plano gratuito inclui cem perguntas por dia, sem cartão de crédito."
        : `Texto de exemplo número ${i} sobre outro assunto qualquer.`,
    }],
  }));
}

Deno.test({ name: "pg faults: slow past the deadline, then served again", ignore }, async () => {
  const db = await pgSchema("slow");
  const locker = connectPg(PG_URL!, { max: 1, schema: db.schema });
  try {
    await indexIntoPg(db.sql, docs(3));
    const search = createPgSiteSearch({ sql: db.sql, deadlineMs: 300 });
    assert.equal((await search.search("plano gratuito")).passages[0].id, "doc0#a");
    let release!: () => void;
    const held = locker.begin(async (tx) => {
      await tx`lock table site_passages in access exclusive mode`;
      await new Promise<void>((r) => release = r);
    });
    while (!release) await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    await assert.rejects(search.search("plano gratuito"), SearchUnavailableError);
    const waited = performance.now() - t0;
    assert.ok(waited < 2_000, `answered "unavailable" after ${waited.toFixed(0)} ms`);
    assert.equal(search.status().status, "unavailable");
    release();
    await held;
    assert.equal((await search.search("plano gratuito")).passages[0].id, "doc0#a");
  } finally {
    await locker.end({ timeout: 1 });
    await db.drop();
  }
});

Deno.test({
  name: "pg faults: a translated question stalled on its senses is unavailable, then served",
  ignore,
}, async () => {
  const db = await pgSchema("slow_senses");
  const locker = connectPg(PG_URL!, { max: 1, schema: db.schema });
  try {
    await indexIntoPg(db.sql, docs(3));
    const lexicon = parseLexicon("free\tgratuito\nplan\tplano\n");
    const search = createPgSiteSearch({ sql: db.sql, deadlineMs: 300, lexicon: () => lexicon });
    // An English question over the Portuguese site: its senses are read from site_terms first.
    const asked = "Is there a free plan?";
    assert.equal((await search.search(asked)).passages[0].id, "doc0#a");
    let release!: () => void;
    const held = locker.begin(async (tx) => {
      await tx`lock table site_terms in access exclusive mode`;
      await new Promise<void>((r) => release = r);
    });
    while (!release) await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    await assert.rejects(search.search(asked), SearchUnavailableError);
    const waited = performance.now() - t0;
    assert.ok(waited < 2_000, `answered "unavailable" after ${waited.toFixed(0)} ms`);
    assert.equal(search.status().status, "unavailable");
    release();
    await held;
    const again = await search.search(asked);
    assert.equal(again.passages[0].id, "doc0#a");
    assert.equal(again.translatedFrom, "en");
  } finally {
    await locker.end({ timeout: 1 });
    await db.drop();
  }
});

Deno.test({
  name: "pg faults: a connection killed mid-query is an error, the next query reconnects",
  ignore,
}, async () => {
  const db = await pgSchema("killed");
  const admin = connectPg(PG_URL!, { max: 1, schema: db.schema });
  try {
    await indexIntoPg(db.sql, docs(3));
    const search = createPgSiteSearch({ sql: db.sql, deadlineMs: 10_000 });
    await search.search("plano");
    let release!: () => void;
    const held = admin.begin(async (tx) => {
      await tx`lock table site_passages in access exclusive mode`;
      await new Promise<void>((r) => release = r);
    });
    while (!release) await new Promise((r) => setTimeout(r, 10));
    const pending = assert.rejects(search.search("plano gratuito"), SearchUnavailableError);
    const other = connectPg(PG_URL!, { max: 1 });
    try {
      // The search's backend waits on the lock: end it as a crash of its server process would.
      // It is told by its wait, not its text: pg_stat_activity keeps a statement's first 1 kB.
      let killed = 0;
      for (let i = 0; i < 100 && !killed; i++) {
        const rows = await other`
          select pg_terminate_backend(pid) as done from pg_stat_activity
          where wait_event_type = 'Lock' and datname = current_database()
            and pid <> pg_backend_pid() and query not like 'lock table%'`;
        killed = rows.length;
        if (!killed) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(killed > 0, "the waiting search was found");
    } finally {
      await other.end({ timeout: 1 });
    }
    await pending;
    release();
    await held;
    assert.equal((await search.search("plano gratuito")).passages[0].id, "doc0#a");
  } finally {
    await admin.end({ timeout: 1 });
    await db.drop();
  }
});

Deno.test({
  name:
    "pg faults: server down at start, killed during indexing, back: the chat says so and recovers",
  ignore,
  // The killed server's sockets close after the test's own checks.
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const cluster = await ownCluster();
  const indexer = connectPg(cluster.url, { max: 1, statementTimeoutMs: 60_000 });
  let server: Awaited<ReturnType<typeof startTestServer>> | null = null;
  try {
    // Killed during a batch: the run fails with an error, the process goes on.
    await assert.rejects(
      indexIntoPg(indexer, docs(40), {
        batchDocs: 10,
        onProgress: (done) => {
          if (done === 10) cluster.stopSync();
        },
      }),
    );
    server = await startTestServer({
      config: testConfig(),
      env: { SEARCH_DATABASE_URL: cluster.url },
    });
    const id = newChatId();
    const jar = new CookieJar();
    const ask = async (question: string) => {
      const res = await postChat(server!.url, {
        id,
        trigger: "submit-message",
        message: userMessage(question),
      }, { jar });
      assert.equal(res.status, 200);
      const sse = await readSse(res);
      assert.ok(sse.done);
      const output = sse.chunks.find((c) => c.type === "tool-output-available") as
        | { output: { mode: string; passages: unknown[] } }
        | undefined;
      return { ...output?.output, text: streamedText(sse.chunks) } as {
        mode: string;
        passages: unknown[];
        text: string;
      };
    };
    // Down: a clear "unavailable", no 5xx, the turn saved.
    const down = await ask("Quanto custa o plano gratuito?");
    assert.equal(down.mode, "unavailable");
    assert.match(down.text, /Não consegui pesquisar o site agora/);
    const health = await (await fetch(`${server.url}/api/health`)).json();
    assert.equal(health.index.status, "unavailable");
    // Back, with the index resumed where the killed run stopped: the same app answers.
    await cluster.start();
    const resumed = await indexIntoPg(indexer, docs(40), { batchDocs: 10 });
    assert.equal(resumed.unchanged, 10, "the batch committed before the kill is kept");
    const out = await ask("O plano gratuito inclui quantas perguntas?");
    assert.equal(out.mode, "lexical");
    assert.ok(out.passages.length > 0);
    assert.match(out.text, /cem perguntas por dia/);
    const saved = await server.services.store.loadMessages(id) as ChatMessage[];
    assert.equal(saved.length, 4, "both turns are in the history");
  } finally {
    await server?.close();
    await indexer.end({ timeout: 1 });
    await cluster.remove();
  }
});
