import assert from "node:assert/strict";
import { isBareLine, sentences } from "./sentences.ts";

Deno.test("an abbreviation with inner stops ends no sentence before a lower-case word", () => {
  assert.deepEqual(
    sentences("Some memory cannot be freed (e.g. a tool like Purify will complain). It is rare."),
    ["Some memory cannot be freed (e.g. a tool like Purify will complain).", "It is rare."],
  );
  assert.deepEqual(sentences("Roma caiu em 476 d.C. pelo avanço dos povos."), [
    "Roma caiu em 476 d.C. pelo avanço dos povos.",
  ]);
});

Deno.test("an interpreter's ... prompt keeps the code line in its sentence", () => {
  const text = "For example:: >>> squares = [] >>> for x in range(5): ... " +
    "squares.append(lambda: x**2) This gives you a list. Lists are mutable.";
  assert.deepEqual(sentences(text), [
    "For example:: >>> squares = [] >>> for x in range(5): ... squares.append(lambda: x**2)",
    "This gives you a list.",
    "Lists are mutable.",
  ]);
});

Deno.test("a stop before a lower-case word still ends a sentence on sites that write so", () => {
  assert.deepEqual(sentences("O prazo é de 30 dias. o pedido vai à coordenação."), [
    "O prazo é de 30 dias.",
    "o pedido vai à coordenação.",
  ]);
});

Deno.test("a run of abbreviations is split in linear time", () => {
  const text = "e.g. ".repeat(50_000);
  const started = performance.now();
  assert.equal(sentences(text).length, 1);
  // Generous: quadratic rescanning of the merged run takes minutes here.
  assert.ok(performance.now() - started < 5_000);
});

Deno.test("a lone word ending a line with no stop is a heading run in, not a sentence", () => {
  assert.deepEqual(sentences("Twisted is a popular alternative. Databases"), [
    "Twisted is a popular alternative.",
  ]);
  assert.deepEqual(sentences("Sim\nVeja a licença.\nPython\nRuby"), [
    "Sim",
    "Veja a licença.",
    "Python",
    "Ruby",
  ]);
  assert.deepEqual(sentences("It's not. Use sparingly."), ["It's not.", "Use sparingly."]);
});

Deno.test("prose that resumes after an interpreter transcript starts a sentence", () => {
  assert.deepEqual(
    sentences(
      "However, they all return 16:: >>> squares[2]() 16 >>> squares[4]() 16 " +
        "This happens because x is not local to the lambdas.",
    ),
    [
      "However, they all return 16:: >>> squares[2]() 16 >>> squares[4]() 16",
      "This happens because x is not local to the lambdas.",
    ],
  );
  assert.deepEqual(
    sentences(">>> A [[None, None], [None, None]] But when you assign a value, it shows up twice."),
    [">>> A [[None, None], [None, None]]", "But when you assign a value, it shows up twice."],
  );
  // Code after the prompt, a capitalised name in it, and prose in lower case stay whole.
  for (
    const whole of [
      ">>> Point(1, 2) Point(x=1, y=2) is what it prints.",
      ">>> y [10] >>> x [10] you might be wondering why y changed x too.",
      "Type >>> Foo is here and read on.",
    ]
  ) assert.deepEqual(sentences(whole), [whole]);
});

Deno.test("a common abbreviation before a lower-case word ends no sentence", () => {
  // The Debian FAQ: "(ex. de multi-utilizador…)" was quoted as "De multi-utilizador… parar)."
  assert.deepEqual(
    sentences(
      "O programa para daemons quando o runlevel muda (ex. de multi-utilizador para único-utilizador ou parar). O mesmo programa é usado.",
    ),
    [
      "O programa para daemons quando o runlevel muda (ex. de multi-utilizador para único-utilizador ou parar).",
      "O mesmo programa é usado.",
    ],
  );
  assert.deepEqual(sentences("Copie arquivos, pastas etc. e depois salve. Fim."), [
    "Copie arquivos, pastas etc. e depois salve.",
    "Fim.",
  ]);
  // A stop before a capital still ends one.
  assert.deepEqual(sentences("Veja o cap. 3 e a fig. 2. Depois siga."), [
    "Veja o cap. 3 e a fig. 2.",
    "Depois siga.",
  ]);
});

Deno.test("a numbered section heading, a footnote and a list item's number are not sentences", () => {
  // The Debian FAQ's "How can I donate?" was quoted with a lone "13.3.1." and its bug-report
  // entry with its footnote "(7) Use the …-REQUEST address for that.".
  assert.deepEqual(
    sentences(
      "Visit Debian Donations.\n\n13.3.1. Software in the Public Interest\n\nSPI is a non-profit.\n\n" +
        "[7] Use the debian-list-REQUEST@lists.debian.org address for that.",
    ),
    ["Visit Debian Donations.", "SPI is a non-profit."],
  );
  assert.deepEqual(sentences("1. Instale o pacote.\n2) Rode o comando. 3. Reinicie."), [
    "Instale o pacote.",
    "Rode o comando.",
    "Reinicie.",
  ]);
  // A version number inside a sentence is no heading.
  assert.deepEqual(sentences("Python 3.12.1 saiu em 2023."), ["Python 3.12.1 saiu em 2023."]);
});

Deno.test("a command on its own line goes back after the sentence that leads into it", () => {
  // The Debian FAQ: "…download any source package by running" ⏎ "apt-get source foo" was
  // quoted as "…by running." with no command, and "execute either:" lost its command too.
  assert.deepEqual(
    sentences(
      "You can download any source package by running\n\napt-get source foo\n\nTo help you, run it.\n\n" +
        "To identify the package execute either:\n\ndpkg --search foo\n\nThis searches. Later on. [2]",
    ),
    [
      "You can download any source package by running: apt-get source foo",
      "To help you, run it.",
      "To identify the package execute either: dpkg --search foo",
      "This searches.",
      "Later on.",
    ],
  );
  // A colon before a paragraph of prose, or a short heading, takes nothing.
  assert.deepEqual(sentences("Você provavelmente pode:\n\nEstá disponível um programa."), [
    "Você provavelmente pode:",
    "Está disponível um programa.",
  ]);
  assert.deepEqual(sentences("Installing\n\npip install foo"), ["Installing", "pip install foo"]);
});

Deno.test("a log's line is one bare line, and a command after a shell prompt is a command", () => {
  // The Securing Debian Manual's SYN flooding entry: each log line was split at its inner
  // stop, and "Sending cookies." filled an answer's room; "linux:~# netstat …" was quoted apart
  // from the sentence leading into it, capitalised and with a stop added.
  const all = sentences(
    "If you see entries like these in your logs:\n\n" +
      "May 1 12:35:25 linux kernel: possible SYN flooding on port X. Sending cookies.\n" +
      "  2024-05-01 12:36:25 kernel: possible SYN flooding. Sending cookies.\n\n" +
      "Check the number of connections to the server using netstat, for example:\n\n" +
      "linux:~# netstat -ant | grep SYN_RECV | wc -l",
  );
  assert.deepEqual(all, [
    "If you see entries like these in your logs:",
    "May 1 12:35:25 linux kernel: possible SYN flooding on port X. Sending cookies.",
    "2024-05-01 12:36:25 kernel: possible SYN flooding. Sending cookies.",
    "Check the number of connections to the server using netstat, for example: " +
    "linux:~# netstat -ant | grep SYN_RECV | wc -l",
  ]);
  assert.deepEqual(all.map(isBareLine), [false, true, true, false]);
});

Deno.test("a setting a colon shows goes back after its lead-in; a log's line and a cut block do not", () => {
  // The Securing Debian Manual: "…alterando o arquivo /etc/cups/cupsd.conf:" ⏎ "Listen
  // 127.0.0.1:631" was quoted as "…cupsd.conf." with no setting: a capital first word is no
  // command line.
  assert.deepEqual(
    sentences(
      "Configure-o alterando o arquivo /etc/cups/cupsd.conf:\n\nListen 127.0.0.1:631\n\n" +
        "Add this line to proftpd.conf in its global section:\n\nDefaultRoot ~\n\n" +
        "Or run this as root instead:\n\n/usr/sbin/update-inetd --disable telnet",
    ),
    [
      "Configure-o alterando o arquivo /etc/cups/cupsd.conf: Listen 127.0.0.1:631",
      "Add this line to proftpd.conf in its global section: DefaultRoot ~",
      "Or run this as root instead: /usr/sbin/update-inetd --disable telnet",
    ],
  );
  // An example of a log, a block's first line and a line of prose stay lines of their own.
  assert.deepEqual(
    sentences(
      "You might find the following lines in your logs:\n\nDec 30 07:33:36 debian -- MARK --\n\n" +
        "A sample named.conf might be the following:\n\nacl internal {\n\n" +
        "Uma boa regra é esta:\n\nSepare o /home",
    ),
    [
      "You might find the following lines in your logs:",
      "Dec 30 07:33:36 debian -- MARK --",
      "A sample named.conf might be the following:",
      "acl internal {",
      "Uma boa regra é esta:",
      "Separe o /home",
    ],
  );
});
