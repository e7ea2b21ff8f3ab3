import assert from "node:assert/strict";
import type { AnswerOutcome, ChatMessage } from "@/lib/protocol/ui_message.ts";
import {
  followsRelated,
  type FoundPassage,
  MAX_RELATED,
  RELATED_MIN_MATCH,
  relatedQuestions,
  relatedQuestionsOf,
} from "./related_questions.ts";

/** An FAQ entry of our FAQ page sharing a word with the visitor's question, found at `match`. */
function entry(n: number, question: string, match = 0.8): FoundPassage {
  return {
    n,
    title: `Perguntas frequentes › ${question}`,
    url: `/perguntas-frequentes#e${n}`,
    match,
    relatedQuestion: true,
  };
}

Deno.test("related questions: the entries the answer did not quote, in the search's order", () => {
  const found = [
    entry(1, "Preciso criar uma conta?"),
    entry(2, "Como apago meus dados?"),
    entry(3, "Por quanto tempo as conversas ficam guardadas?"),
  ];
  assert.deepEqual(relatedQuestions(found, new Set([1])), [
    { question: "Como apago meus dados?", url: "/perguntas-frequentes#e2" },
    { question: "Por quanto tempo as conversas ficam guardadas?", url: "/perguntas-frequentes#e3" },
  ]);
});

Deno.test("related questions: only entries whose question shares the visitor's words", () => {
  // "O que é um artefato?" found by its answer's words for a question about the cookie.
  const unrelated = { ...entry(2, "O que é um artefato?"), relatedQuestion: undefined };
  const section = { n: 3, title: "Seus dados › O cookie", url: "/seus-dados#cookie", match: 0.9 };
  assert.deepEqual(
    relatedQuestions([entry(1, "Preciso de conta?"), unrelated, section], new Set([1])),
    [],
  );
});

Deno.test("related questions: none below the gate's match, nor without one", () => {
  const found = [
    entry(1, "Preciso de conta?"),
    entry(2, "Como apago meus dados?", RELATED_MIN_MATCH - 0.01),
    { ...entry(3, "Posso usar em inglês?"), match: undefined },
    entry(4, "Onde ficam meus dados?", RELATED_MIN_MATCH),
  ];
  assert.deepEqual(relatedQuestions(found, new Set([1])).map((r) => r.url), [
    "/perguntas-frequentes#e4",
  ]);
});

Deno.test("related questions: no internal passage, no twin of a cited one, each question once", () => {
  const found = [
    entry(1, "Preciso de conta?"),
    { ...entry(2, "Preciso de conta?"), url: "/perguntas-frequentes#e1" },
    { ...entry(9, "Como apago?"), url: null },
    entry(3, "Como apago meus dados?"),
    entry(4, "como apago meus dados?"),
  ];
  assert.deepEqual(relatedQuestions(found, new Set([1])).map((r) => r.url), [
    "/perguntas-frequentes#e3",
  ]);
});

Deno.test("related questions: entries ranked past the passages shown come after them", () => {
  const past = { ...entry(0, "Onde ficam meus dados?"), n: undefined };
  const found = [entry(1, "Preciso de conta?"), entry(2, "Como apago meus dados?"), past];
  assert.deepEqual(relatedQuestions(found, new Set([1])).map((r) => r.question), [
    "Como apago meus dados?",
    "Onde ficam meus dados?",
  ]);
});

Deno.test("related questions: at most three, and all of them when the answer cites none", () => {
  const found = [1, 2, 3, 4, 5].map((n) => entry(n, `Pergunta número ${n}?`));
  const related = relatedQuestions(found, new Set());
  assert.equal(related.length, MAX_RELATED);
  assert.deepEqual(related.map((r) => r.question), [
    "Pergunta número 1?",
    "Pergunta número 2?",
    "Pergunta número 3?",
  ]);
});

Deno.test("related questions: a stopped or failed answer offers none, on the page and the server alike", () => {
  const answer = (outcome?: AnswerOutcome): ChatMessage => ({
    id: "a",
    role: "assistant",
    parts: [
      {
        type: "tool-search_site",
        toolCallId: "t",
        state: "output-available",
        input: { query: "Como apago?" },
        output: {
          mode: "lexical",
          passages: [entry(1, "Preciso de conta?"), entry(2, "Como apago?")],
        },
      } as ChatMessage["parts"][number],
      { type: "text", text: "“Não.” [1]" },
    ],
    ...(outcome ? { metadata: { outcome } } : {}),
  });
  assert.deepEqual(relatedQuestionsOf(answer()).map((r) => r.question), ["Como apago?"]);
  assert.deepEqual(relatedQuestionsOf(answer("finished")).map((r) => r.question), ["Como apago?"]);
  assert.deepEqual(relatedQuestionsOf(answer("stopped")), []);
  assert.deepEqual(relatedQuestionsOf(answer("failed")), []);
  assert.equal(followsRelated(answer("stopped"), "Como apago?"), false);
});
