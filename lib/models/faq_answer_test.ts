import assert from "node:assert/strict";
import { type AnswerPassage, buildExtractiveAnswer } from "./extractive.ts";
import { faqAnswerSentences } from "./faq_answer.ts";

const entry = (n: number, question: string, text: string, score: number): AnswerPassage => ({
  n,
  title: `Perguntas frequentes › ${question}`,
  url: `/faq#${n}`,
  text,
  score,
  match: 0.6,
});

Deno.test("an FAQ entry ranked first answers with its own first sentence, cited once", () => {
  const answer = buildExtractiveAnswer("Como faço uma cópia de um objeto?", [
    entry(
      1,
      "Como faço para copiar um objeto no Python?",
      "Em geral, tente copy.copy() ou copy.deepcopy() para o caso geral. Nem todos os objetos podem ser copiados, mas a maioria pode.",
      9,
    ),
    // The neighbour entry shares the visitor's words but answers another question.
    entry(
      2,
      "Por que tuplas e listas são diferentes?",
      "Uma cópia de uma tupla é a própria tupla, um objeto imutável.",
      8,
    ),
  ]);
  assert.match(answer, /^“Em geral, tente copy\.copy\(\)/);
  assert.doesNotMatch(answer, /tupla/);
  assert.doesNotMatch(answer, /\[2\]/);
  assert.match(answer, /\[1\]$/);
});

Deno.test("a yes/no question leads with the sentence that says yes or no", () => {
  const text = "O Python tem uma licença de código aberto aprovada pela OSI. " +
    "Sim, você pode usá-lo em produtos comerciais sem pagar nada. Veja a licença completa.";
  const chosen = faqAnswerSentences("Posso usar Python num produto comercial sem pagar?", text);
  assert.match(chosen[0], /^Sim, você pode/);
  assert.ok(chosen.join(" ").split(/\s+/).length <= 45);
});

Deno.test("the entry's next sentences follow in order while the answer stays within 45 words", () => {
  // The visitor asks about the detail the entry gives third; the first two do not hold it.
  const text = "O módulo padrão random implementa um gerador de números aleatórios. " +
    "O uso é simples: import random; random.random(). " +
    "Para embaralhar uma lista no lugar, use shuffle(L). " +
    "palavra ".repeat(40).trim() + ".";
  const chosen = faqAnswerSentences("Como embaralho uma lista?", text);
  assert.equal(chosen.length, 3);
  assert.match(chosen[0], /^O módulo padrão random/);
  assert.match(chosen[2], /shuffle\(L\)/);
});

Deno.test("a sentence the page runs on in lower case is not quoted without the one before it", () => {
  // The Debian FAQ: "Instale a stable. ponto final." ran on; the long sentence before
  // "ponto final." is skipped for room, so "Ponto final." was quoted alone.
  const text = "A resposta é um pouco complicada. Depende realmente daquilo que pretende fazer. " +
    "Uma solução seria perguntar a um amigo que corre Debian. " +
    `Se a segurança ou a estabilidade são ${"muito ".repeat(30)}importantes: instale a stable. ` +
    "ponto final. Este é o método mais preferido. " +
    "shuffle(L) embaralha uma lista no lugar. " + "palavra ".repeat(40).trim() + ".";
  const chosen = faqAnswerSentences("Qual distribuição é melhor para mim?", text);
  assert.ok(!chosen.some((s) => /^ponto final/i.test(s)), chosen.join(" | "));
  // A name of code in lower case starts a sentence of its own.
  assert.ok(chosen.some((s) => s.startsWith("shuffle(L)")), chosen.join(" | "));
});

Deno.test("a how question adds the entry's step or code line after its first sentence", () => {
  const text =
    "Há várias formas de fazer isso, e a mais simples depende do que você quer com ela no fim. " +
    "Em geral, use a função reversed(lista) num laço for.";
  const chosen = faqAnswerSentences("Como percorro uma lista de trás pra frente?", text);
  assert.equal(chosen.length, 2);
  assert.match(chosen[1], /reversed\(lista\)/);
});

Deno.test("a short first sentence brings the next one; the answer stays about 45 words", () => {
  const chosen = faqAnswerSentences(
    "Preciso gostar do Monty Python?",
    "Não, mas isso ajuda. :) " + "palavra ".repeat(60).trim() + ".",
  );
  assert.deepEqual(chosen, ["Não, mas isso ajuda."]);
});

Deno.test("nothing the search matched: the refusal is in the question's language", () => {
  const weak = { ...entry(1, "O que é Python?", "Python é uma linguagem.", 1), match: 0.05 };
  assert.match(
    buildExtractiveAnswer("Posso usar Python num produto comercial sem pagar nada?", [weak]),
    /^O site não tem informação sobre isso/,
  );
  assert.match(
    buildExtractiveAnswer("Do you deliver pizza on Sundays?", [weak]),
    /^The site does not cover that/,
  );
});

Deno.test("the gate's two halves are thresholds eval:gate can move", () => {
  // The passage matches well, but each sentence holds only one of the visitor's words.
  const page: AnswerPassage = {
    n: 1,
    title: "Impressão",
    url: "/impressao",
    text: "O cups imprime pela rede. A interface loopback fica na própria máquina. " +
      "Listen 127.0.0.1:631 basta.",
    score: 1,
    match: 0.8,
  };
  const question = "Como deixo o cups escutando só na interface loopback da máquina?";
  assert.doesNotMatch(buildExtractiveAnswer(question, [page]), /^O site não tem/);
  assert.match(buildExtractiveAnswer(question, [page], { minCoverage: 0.9 }), /^O site não tem/);
  assert.match(buildExtractiveAnswer(question, [page], { minMatch: 0.9 }), /^O site não tem/);
  assert.doesNotMatch(
    buildExtractiveAnswer(question, [{ ...page, match: 0.3 }], { minMatch: 0.2 }),
    /^O site não tem/,
  );
});

Deno.test("a sentence that holds the question read either way beats a weak one read first", () => {
  const pages: AnswerPassage[] = [
    {
      n: 1,
      title: "Usage records",
      url: "/en/usage",
      text: "Every call to a model produces a usage record with the latency and the number of " +
        "tokens. The owner reads them on the dashboard.",
      score: 3,
      match: 0.7,
    },
    {
      n: 2,
      title: "Falhas do provedor",
      url: "/pt/falhas",
      text: "Se o provedor falhar por um erro de rede, a chamada ao modelo é repetida uma única " +
        "vez. Depois disso, você vê um aviso.",
      score: 2,
      match: 0.7,
    },
  ];
  const translation = {
    from: "en" as const,
    to: "pt" as const,
    words: [["falhar", "falha"], ["modelo"], ["chamada"], ["repetida", "repetir"]],
  };
  // The English page shares "model" and "call" only; the gate's lower coverage would take it,
  // read first, over the Portuguese page that says the call is retried.
  const answer = buildExtractiveAnswer("Are failed model calls retried?", pages, {
    translation,
    minCoverage: 0.15,
  });
  assert.match(answer, /^From the site's pages in Portuguese: “Se o provedor falhar.*” \[2\]/);
});

Deno.test("a quote from a page in the other language says so in the visitor's language", () => {
  const page: AnswerPassage = {
    n: 1,
    title: "FAQ › Can I use it in English?",
    url: "/en/faq#english",
    text: "Yes, the whole interface is available in English.",
    score: 3,
    match: 0.7,
  };
  const answer = buildExtractiveAnswer("Dá pra usar em inglês?", [page]);
  assert.match(answer, /^O site trata disso só em inglês: “Yes, the whole interface/);
});

Deno.test("what the visitor asks beyond the entry's question is quoted last from the same entry", () => {
  // The entry asks how to copy a file; the visitor asks whether permissions survive, which
  // only the entry's fourth sentence says, after a long first one.
  const text = "The shutil module contains a copyfile function that copies the data of one " +
    "file to another path, and several related helpers for whole trees and archives. " +
    "It is part of the standard library. " +
    "It works on every platform. " +
    "It does not copy file permissions, though shutil.copy2 keeps most of them.";
  const chosen = faqAnswerSentences(
    "Does copying a file keep its permissions?",
    text,
    "How do I copy a file?",
  );
  assert.match(chosen[0], /^The shutil module/);
  assert.match(chosen.at(-1)!, /permissions/);
  assert.ok(chosen.join(" ").split(/\s+/).length <= 60);
});

Deno.test("the step a how question asks for is quoted even past 45 words, within 60", () => {
  const text = "Python runs on Windows, macOS and Linux, and most distributions of it " +
    "already ship with the interpreter and its standard library installed for you. " +
    "To run a script, open a terminal in its folder and call python(script.py) with the " +
    "name of your file, or double-click it when the file association is set up. " +
    "Some editors also offer a run button.";
  const chosen = faqAnswerSentences("How do I run a Python script?", text);
  assert.match(chosen[1] ?? "", /python\(script\.py\)/);
  assert.ok(chosen.join(" ").split(/\s+/).length <= 60);
});

Deno.test("a question with no word of either language is answered in the pages' language", () => {
  const page = (match: number): AnswerPassage => ({
    n: 1,
    title: "FAQ › What is the GIL?",
    url: "/faq#gil",
    text: "The global interpreter lock lets only one thread run Python code at a time.",
    score: 2,
    match,
  });
  assert.match(buildExtractiveAnswer("pizza?", [page(0.05)]), /^The site does not cover that/);
  assert.doesNotMatch(buildExtractiveAnswer("GIL?", [page(0.9)]), /O site trata disso/);
});

Deno.test("a Portuguese sentence opening with “No” (in the) is not taken for an English no", () => {
  const text = "Isso depende de como o Python veio. " +
    "No Windows use o Adicionar ou remover programas do Painel de Controle. " +
    "No, it is not removable.";
  const chosen = faqAnswerSentences("Posso desinstalar o Python?", text);
  assert.match(chosen[0], /^No, it is not/);
  assert.equal(
    faqAnswerSentences("Posso desinstalar o Python?", text.split(" No, ")[0])[0],
    "Isso depende de como o Python veio.",
  );
});

Deno.test("a short entry is quoted whole: its step after a long problem description is kept", () => {
  const text = "This can happen on older releases of the operating system when some of the " +
    "updates published since then have not been installed yet on the machine that runs it. " +
    "First make sure the system is supported, then install the runtime update from the " +
    "vendor's support page and start the program again.";
  const chosen = faqAnswerSentences("Error about a missing library on an old machine", text);
  assert.equal(chosen.length, 2);
  assert.match(chosen[1], /install the runtime update/);
});

Deno.test("a how question finds the entry's step as its fifth sentence", () => {
  const text = "Sorting in place saves memory when performance matters a lot. " +
    "So the method sorts the list itself. " +
    "To remind you of that, it returns nothing at all. " +
    "This way you will not overwrite a list by accident when you need the old order too. " +
    "If you want a new list, use the built-in sorted(iterable) instead. " +
    "That function builds a new list from any iterable, sorts it and returns it to you.";
  const chosen = faqAnswerSentences("How do I keep the old order?", text);
  assert.ok(chosen.some((s) => /sorted\(iterable\)/.test(s)), chosen.join(" | "));
  assert.ok(chosen.join(" ").split(/\s+/).length <= 60);
});

Deno.test("the detail sentence counts the visitor's words that the lead also holds", () => {
  // "came" is in the lead and in the answer; only with it does the answer outweigh the
  // sentence holding "remove", which is as rare in the entry as "system".
  const text = "It depends on how Python came to your computer. " +
    "If someone installed it on purpose, you can take it away without hurting anyone. " +
    "On Windows, use the Control Panel's program list to take it away. " +
    "If a third-party application installed it, taking it away breaks that application. " +
    "Use that application's own tool to remove it. " +
    "If Python came with your operating system, taking it away is not recommended. " +
    "Reinstalling everything would be needed to fix things again.";
  const chosen = faqAnswerSentences(
    "Can I remove the Python that came with the system?",
    text,
    "Can I delete Python?",
  );
  assert.match(chosen.at(-1)!, /not recommended/);
});

Deno.test("a sentence too long for the answer is skipped, not the short ones after it", () => {
  const text = "Python runs on many systems. " +
    "palavra ".repeat(45).trim() + ". " +
    "The installer for each of them is on the downloads page. " +
    "palavra ".repeat(40).trim() + ".";
  const chosen = faqAnswerSentences("What do I need first?", text, "How do I start?");
  assert.deepEqual(chosen, [
    "Python runs on many systems.",
    "The installer for each of them is on the downloads page.",
  ]);
});

Deno.test("an entry whose question holds few of the visitor's words says no bare yes or no", () => {
  // The search found the entry by its answer's words ("escreve", "guardado"); its "Sim."
  // answers "Posso parar…?", not the visitor's question.
  const text = "Sim. Enquanto o assistente escreve, o botão de enviar vira um botão de parar. " +
    "O que já foi escrito fica guardado na conversa.";
  const other = faqAnswerSentences(
    "O assistente guarda o que eu escrevo?",
    text,
    "Posso parar uma resposta no meio?",
  );
  assert.ok(other.length > 0);
  assert.ok(other.every((s) => !/^Sim\.?$/.test(s)), other.join(" | "));
  assert.match(other[0], /^Enquanto o assistente escreve/);
  // One shared word of two ("usar") is not the same question either.
  const oneWord = faqAnswerSentences(
    "Posso usar com python3?",
    "Sim. A interface está em português e em inglês.",
    "Posso usar o assistente em inglês?",
  );
  assert.match(oneWord[0], /^A interface/);
  // Asked the entry's own question, the same entry still says yes first.
  const same = faqAnswerSentences(
    "Posso parar a resposta?",
    text,
    "Posso parar uma resposta no meio?",
  );
  assert.equal(same[0], "Sim.");
});

Deno.test("a quoted sentence that starts with code keeps its case; prose is capitalised", () => {
  const answer = buildExtractiveAnswer("How do I add an item to a list?", [
    entry(
      1,
      "How do I add an item to a list?",
      "list.append(x) adds x at the end.\nthat is all.",
      9,
    ),
  ]);
  assert.match(answer, /^“list\.append\(x\) adds x at the end\.” “That is all\.” \[1\]$/);
});

Deno.test("a when question leads with the entry's sentence that holds a year or a version", () => {
  const text = "A trava global do interpretador é vista como um obstáculo em máquinas com " +
    "muitos processadores, porque um programa usa apenas uma CPU de cada vez. " +
    "O trabalho para removê-la está em andamento. " +
    "O Python 3.13 provavelmente será a primeira versão contendo esse trabalho. " +
    "palavra ".repeat(30).trim() + ".";
  const chosen = faqAnswerSentences("Quando vão tirar o GIL?", text, "Não podemos remover a GIL?");
  assert.match(chosen[0], /^O Python 3\.13 provavelmente/);
  // Not a date asked: "When should I…?" asks in which case, and keeps the entry's order.
  const entry =
    "Tuples hold records of fixed size. Since Python 2.6 they have index() and count().";
  for (const q of ["When should I pick a tuple?", "Quando devo usar tuplas?"]) {
    assert.match(faqAnswerSentences(q, entry)[0], /^Tuples hold records/);
  }
  assert.match(faqAnswerSentences("When did tuples get index()?", entry)[0], /^Since Python 2\.6/);
});

Deno.test("a why question whose reason cannot follow a long setup sentence leads with the reason", () => {
  const setup = "Assume you use a for loop to define a few different lambdas, for example " +
    "squares = [] and then for x in range(5) append lambda: x**2, which gives you a list " +
    "that contains five lambdas that calculate x**2 when each one is called later on.";
  const reason = "This happens because x is not local to the lambdas, but is defined in the " +
    "outer scope, and it is accessed when the lambda is called, not when it is defined.";
  const text = `${setup} You might expect them to return 0, 1, 4, 9 and 16. ${reason} ` +
    "At the end of the loop, the value of x is 4.";
  const chosen = faqAnswerSentences(
    "I make a bunch of lambdas in a loop and every one gives the last number, why?",
    text,
    "Why do lambdas defined in a loop all return the same result?",
  );
  // Only what follows the reason fills the room: the setup would take the answer past 60
  // words, and "You might expect…" read after the reason is out of order.
  assert.deepEqual(chosen, [reason, "At the end of the loop, the value of x is 4."]);
  // A short setup still leads, with the reason after it.
  const short = faqAnswerSentences(
    "Why do my lambdas all return the same result?",
    `Lambdas made in a loop share x. ${reason}`,
    "Why do lambdas defined in a loop all return the same result?",
  );
  assert.deepEqual(short, ["Lambdas made in a loop share x.", reason]);
});

Deno.test("a how question answered by a yes/no entry gets the step, not its bare yes", () => {
  // The Debian FAQ's "Can I automatically update the system?" asked as a how.
  const text = "Yes. You can use cron-apt; this tool updates the system at regular intervals. " +
    "By default it only downloads new packages.";
  const how = faqAnswerSentences(
    "How do I keep my system updated automatically?",
    text,
    "Can I automatically update the system?",
  );
  assert.match(how[0], /^You can use cron-apt/);
  assert.ok(how.every((s) => s !== "Yes."), how.join(" | "));
  // Asked as a yes/no question, or tersely, the yes still leads.
  for (const q of ["Can I update the system automatically?", "automatically update system?"]) {
    assert.equal(faqAnswerSentences(q, text, "Can I automatically update the system?")[0], "Yes.");
  }
});

Deno.test("a why is answered by what the practice avoids, not only by a “because”", () => {
  // The Securing Debian Manual gives its reasons as purposes ("…evitando assim um falso senso
  // de segurança"); only causes ("porque", "pois") counted as the reason a "why" asks for.
  const text = "As verificações de integridade devem ser feitas, se possível, com o sistema " +
    "desligado da rede e iniciado a partir de uma mídia confiável, usando as ferramentas " +
    "que o administrador preparou antes e guardou numa mídia somente leitura junto com a base. " +
    "A base deve ficar numa mídia somente leitura. Várias ferramentas fazem isso sozinhas. " +
    "Usa-se outro sistema operacional para a verificação, evitando assim um falso senso de " +
    "segurança criado por rootkits.";
  const why = faqAnswerSentences(
    "Por que checar a integridade com a máquina fora do ar?",
    text,
    "Por que fazer verificações de integridade offline?",
  );
  assert.ok(why.some((s) => s.includes("evitando assim")), why.join(" | "));
});

Deno.test("a which question gets no yes said with a word of emphasis", () => {
  // The Securing Debian Manual: "…qual daemon devo usar?" was answered "Sim, com certeza." by
  // an entry asking whether to leave ports open; only a bare "Sim." was left out.
  const text = "Sim, com certeza. As portas que deixa abertas devem seguir a política do seu " +
    "site para serviços públicos.";
  const which = faqAnswerSentences(
    "se eu deixar o finger aberto pro público, qual daemon devo usar?",
    text,
    "Devo deixar portas abertas para o público?",
  );
  assert.match(which[0], /^As portas que deixa abertas/);
  // Asked as a yes/no question, the yes still leads.
  const yes = faqAnswerSentences(
    "Posso deixar portas abertas para o público?",
    text,
    "Devo deixar portas abertas para o público?",
  );
  assert.equal(yes[0], "Sim, com certeza.");
});

Deno.test("a how question's step may name a command to try, not only a verb like “use”", () => {
  // The Debian FAQ's "Where is the source code?" answered "how do I get the source?" with
  // its licence sentences and never the command.
  const text = "O código fonte está incluído para tudo num sistema Debian. " +
    "Os termos de licença da maioria dos programas requerem que o código fonte seja distribuído com eles. " +
    "O código é distribuído no directório pool, junto com os binários de cada arquitectura, em todos os espelhos. " +
    "Para obter o código fonte sem conhecer o arquivo, tente um comando como apt-get source nome-do-pacote.";
  const chosen = faqAnswerSentences("Como pego o código-fonte de um programa?", text);
  assert.match(chosen.join(" "), /apt-get source/);
});

Deno.test("a number before a parenthesis is no function call, so no step", () => {
  // The Debian FAQ's "How can I donate?" got "SPI is an IRS 501(c)(3) non-profit…" as its step.
  const text =
    "Donations from sponsors let Debian buy machines and other hardware, and organise conferences and development sprints. " +
    "Individuals can also donate to the organizations that are critical to the development of the project, of which there are several in different countries around the world. " +
    "SPI is an IRS 501(c)(3) non-profit organization based in the United States of America.";
  const chosen = faqAnswerSentences("How can I give money to Debian?", text);
  assert.ok(!chosen.some((s) => s.includes("501(c)")), chosen.join(" | "));
});

Deno.test("a how question gets the step after the problem, even when both run past 60 words", () => {
  // "Ao usar…" sets the scene of the problem; it is no step. The step follows a long setup.
  const setup = "Ao usar o assistente com um navegador antigo, a janela do chat pode abrir em " +
    "branco depois de uma atualização do sistema operacional do computador.";
  const step = "Primeiro, certifique-se de que o navegador esteja atualizado e, se isso não " +
    "resolver o problema, limpe os dados do site nas configurações do navegador e abra a " +
    "página de novo para carregar o widget outra vez.";
  const text = `${setup} ${step} ${"Outra observação qualquer sobre o tema. ".repeat(6)}`;
  const chosen = faqAnswerSentences(
    "O chat abre em branco, como conserto?",
    text,
    "Por que a janela do chat abre em branco?",
  );
  assert.deepEqual(chosen.slice(0, 2), [setup, step]);
});

Deno.test("the sentence holding what the visitor asks beyond the entry's question leads when it cannot follow", () => {
  const first = "Você pode fazer o que quiser com o código do assistente, desde que mantenha o " +
    "aviso de direitos autorais em toda cópia e em toda documentação que acompanhe o projeto.";
  const detail = "Se respeitar essas regras, não há problema em usar o assistente num produto " +
    "comercial, vendê-lo junto com o seu site ou cobrar dos seus clientes pela instalação e " +
    "pela manutenção dele.";
  const text = `${first} ${detail} Gostaríamos de saber onde ele é usado. ${
    "Outra observação qualquer sobre o tema. ".repeat(6)
  }`;
  const chosen = faqAnswerSentences(
    "Posso vender um produto com o assistente dentro?",
    text,
    "Há restrições de direitos autorais sobre o uso do assistente?",
  );
  assert.equal(chosen[0], detail);
  assert.ok(chosen.join(" ").split(/\s+/).length <= 45);
  // A block of code past 45 words never leads: the entry's own first sentence does.
  const long = detail.replace(/\.$/, `: ${"x = produto(1) ".repeat(8)}.`);
  const withCode = faqAnswerSentences(
    "Posso vender um produto com o assistente dentro?",
    text.replace(detail, long),
    "Há restrições de direitos autorais sobre o uso do assistente?",
  );
  assert.equal(withCode[0], first);
});
