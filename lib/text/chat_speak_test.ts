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

Deno.test("English contractions typed without the apostrophe get it back; words stay", () => {
  // "Any linters youd recommend?" weighed "youd" as a word no page has and was refused.
  assert.equal(spelledOut("Any linters youd recommend?"), "Any linters you'd recommend?");
  assert.equal(
    spelledOut("Whats the difference? I dont get it"),
    "What's the difference? I don't get it",
  );
  assert.equal(spelledOut("Its id is ill"), "Its id is ill");
  assert.equal(spelledOut("don't"), "don't");
});
