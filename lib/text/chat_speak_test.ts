import assert from "node:assert/strict";
import { spelledOut } from "./chat_speak.ts";

Deno.test("chat spellings are written out; words, code and other readings stay", () => {
  assert.equal(spelledOut("pq dá pau qdo altero?"), "por que dá pau quando altero?");
  assert.equal(spelledOut("Pq o Python é lento?"), "Por que o Python é lento?");
  assert.equal(spelledOut("oq é um decorator, vc sabe?"), "o que é um decorator, você sabe?");
  assert.equal(
    spelledOut("tem c/ desconto p/ estudante?"),
    "tem com desconto para estudante?",
  );
  assert.equal(spelledOut("run it w/o sudo"), "run it without sudo");
  // Code and file names as typed; "td" is HTML's cell as often as "tudo".
  assert.equal(spelledOut("echo s/foo/bar/ | sed"), "echo s/foo/bar/ | sed");
  assert.equal(spelledOut("abri qdo.py e o td da tabela"), "abri qdo.py e o td da tabela");
  assert.equal(spelledOut("PQ?"), "Por que?");
});
