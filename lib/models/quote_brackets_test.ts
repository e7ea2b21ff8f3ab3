import assert from "node:assert/strict";
import { quoteBrackets } from "./quote_brackets.ts";
import { type AnswerPassage, buildExtractiveAnswer } from "./extractive.ts";

Deno.test("an index in quoted code stays an index, as inline code", () => {
  assert.equal(
    quoteBrackets("they all return 16:: >>> squares[2]() 16 >>> squares[4]() 16"),
    "they all return 16:: >>> `squares[2]()` 16 >>> `squares[4]()` 16",
  );
  // A REPL's list output is a list, not a tuple; the punctuation after it stays outside.
  assert.equal(
    quoteBrackets(">>> y.append(10) >>> y [10] >>> x [10], as you see."),
    ">>> y.append(10) >>> y `[10]` >>> x `[10]`, as you see.",
  );
  assert.equal(quoteBrackets(">>> A[0][0] = 5"), ">>> `A[0][0]` = 5");
  // An empty list says the sentence is about lists, not footnotes.
  assert.equal(
    quoteBrackets("o conteúdo mudou de [] para [10]."),
    "o conteúdo mudou de [] para `[10]`.",
  );
});

Deno.test("a footnote in prose is written (N), and inline code is left as it is", () => {
  assert.equal(
    quoteBrackets("Python foi lançado em 1991[1] por Guido."),
    "Python foi lançado em 1991(1) por Guido.",
  );
  assert.equal(
    quoteBrackets("Use `items[0]` para o primeiro item."),
    "Use `items[0]` para o primeiro item.",
  );
  assert.equal(
    quoteBrackets("Chame `f(x)` e leia `items[0]`; a nota [2] fica."),
    "Chame `f(x)` e leia `items[0]`; a nota `[2]` fica.",
  );
  assert.equal(quoteBrackets("Sem colchetes."), "Sem colchetes.");
});

Deno.test("the offline answer quotes a REPL transcript with its indexes intact", () => {
  const passage: AnswerPassage = {
    n: 1,
    title: "Why do lambdas defined in a loop all return the same result?",
    url: "/faq#lambdas",
    text: "However, when you actually try you will see that they all return 16:: " +
      ">>> squares[2]() 16 >>> squares[4]() 16 This happens because x is not local.",
    score: 9,
    match: 0.9,
  };
  const answer = buildExtractiveAnswer("Why do my lambdas all return 16?", [passage]);
  assert.match(answer, /`squares\[2\]\(\)`/);
  assert.doesNotMatch(answer, /squares\(2\)/);
  assert.match(answer, /\[1\]$/);
});

Deno.test("the offline answer quotes a command line as written: no capital, no stop added", () => {
  const passage: AnswerPassage = {
    n: 1,
    title: "FAQ › Can I remove an old kernel?",
    url: "https://example.org/faq#kernel",
    text: "Yes.\n\nYou can remove unwanted kernel packages with this command:\n\n" +
      "dpkg --purge linux-image-NNN\n\nReplace NNN with your kernel version.",
    score: 1,
    match: 1,
  };
  const answer = buildExtractiveAnswer("Can I remove an old kernel?", [passage]);
  assert.match(answer, /with this command: dpkg --purge linux-image-NNN” “Replace NNN/);
});

Deno.test("a command line with an upper-case option or a file name is quoted as written too", () => {
  // The Debian FAQ's "dlocate -S foo" was quoted as "Dlocate -S foo.", and "zgrep foo
  // Contents-ARCH.gz" as "Zgrep foo Contents-ARCH.gz.".
  const passage: AnswerPassage = {
    n: 1,
    title: "FAQ › How can I find out what package produced a file?",
    url: "https://example.org/faq#owner",
    text: "A faster alternative is the dlocate tool.\n\ndlocate -S foo\n\n" +
      "zgrep foo Contents-ARCH.gz\n\nIt searches its own list.",
    score: 1,
    match: 1,
  };
  const answer = buildExtractiveAnswer("How can I find out what package produced a file?", [
    passage,
  ]);
  assert.match(answer, /“dlocate -S foo” “zgrep foo Contents-ARCH\.gz” “It searches/);
});

Deno.test('a reStructuredText "::" before an example is quoted as the colon the page shows', () => {
  // The Python FAQ's text: "Users are often surprised by results like this:: >>> 1.2 - 1.0 …".
  const passage: AnswerPassage = {
    n: 1,
    title: "FAQ › Why are floating-point calculations so inaccurate?",
    url: "https://example.org/faq#float",
    text: "Users are often surprised by results like this:: >>> 1.2 - 1.0 0.19999999999999996 " +
      "and think it is a bug. Use std::vector or a[::2] instead.",
    score: 1,
    match: 1,
  };
  const answer = buildExtractiveAnswer("Why are floating-point calculations so inaccurate?", [
    passage,
  ]);
  assert.match(answer, /like this: >>> 1\.2 - 1\.0/);
  assert.match(answer, /std::vector or a\[::2\]/);
});
