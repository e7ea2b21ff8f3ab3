import assert from "node:assert/strict";
import { SearchEngine } from "./engine.ts";
import { buildIndexData, type PassageInput } from "./index_data.ts";
import { TermRepair } from "./term_repair.ts";

const passage = (id: string, lang: "pt" | "en", title: string, text: string): PassageInput => ({
  id,
  docId: id,
  title,
  url: `/${id}`,
  lang,
  text,
});

const site = buildIndexData([
  passage("db", "en", "Database interfaces", "The sqlite3 module reads and writes database files."),
  passage("mail", "en", "Sending mail", "Use smtplib to send mail from a script."),
  passage("envio", "pt", "Envio", "Use o módulo smtplib para enviar um e-mail."),
  passage("files", "en", "Files", "Use open() to read a file; close it when done."),
  passage("loops", "en", "Loops", "Use a for loop to walk over any sequence in order."),
]);

const repairOf = () => {
  const p = site.postings;
  return new TermRepair({ terms: p.terms, df: (i) => p.postOffsets[i + 1] - p.postOffsets[i] });
};

Deno.test("a version digit the visitor drops or adds is read as the site spells it", () => {
  const repair = repairOf();
  assert.deepEqual(repair.repair("sqlite", "en"), ["sqlite3"]);
  assert.deepEqual(repair.repair("sqlite2", "en"), null); // "sqlite" itself is not a term
  assert.deepEqual(repair.repair("loop3", "en"), ["loop"]);
});

Deno.test("the glued 'e' of e-mail is read either way, only where the site has the other spelling", () => {
  const repair = repairOf();
  assert.deepEqual(repair.repair("email", "en"), ["mail"]);
  assert.deepEqual(repair.repair("email", "pt"), ["mail"]);
  assert.equal(repair.repair("evento", "pt"), null);
});

Deno.test("a word the site has is never repaired", () => {
  const repair = repairOf();
  assert.equal(repair.repair("mail", "en"), null);
  assert.equal(repair.repair("file", "en"), null);
  assert.equal(repair.repair("pizza", "en"), null);
});

Deno.test("'Can I use SQLite?' and 'send an email' find the pages that write sqlite3 and mail", async () => {
  // Both failed before the repair: the words read as absent, the pages matched nothing.
  const engine = new SearchEngine(site);
  const sqlite = await engine.search("Can I use SQLite?", { k: 3 });
  assert.equal(sqlite.passages[0].id, "db");
  assert.ok(sqlite.passages[0].match! > 0.8); // the site has the word: not read as off-topic
  const mail = await engine.search("How do I send an email from Python?", { k: 3 });
  assert.equal(mail.passages[0].id, "mail");
  const envio = await engine.search("Como mando email pelo programa?", { k: 3 });
  assert.equal(envio.passages[0].id, "envio");
});
