import assert from "node:assert/strict";
import type { DocPageData } from "./pages.ts";
import { contentSuggestions, siteSuggestions } from "./suggestions.ts";

function page(id: string, lang: "pt" | "en", title: string, headings: string[]): DocPageData {
  return {
    id,
    url: `/sobre/${id}`,
    title,
    lang,
    source: "",
    license: "",
    html: "",
    headings: headings.map((text, i) => ({ level: 3, id: `h${i}`, text })),
    alternate: null,
  };
}

const PAGES = [
  page("faq", "pt", "Perguntas frequentes", ["Sobre", "Posso parar?", "Há conta?", "Custa algo?"]),
  page("dados", "pt", "Seus dados", ["Quanto tempo fica guardado?"]),
  page("guia", "pt", "Guia de instalação", ["Passo 1"]),
  page("en-faq", "en", "FAQ", ["Can I stop it?"]),
];

Deno.test("contentSuggestions: questions of the visitor's language, one page at a time, then titles", () => {
  assert.deepEqual(contentSuggestions(PAGES, "pt-BR"), [
    "Posso parar?",
    "Quanto tempo fica guardado?",
    "Há conta?",
  ]);
  assert.deepEqual(contentSuggestions(PAGES, "en"), ["Can I stop it?", "FAQ"]);
});

Deno.test("siteSuggestions: the owner's list for a language wins; none when the corpus fails", async () => {
  const pages = { get: () => Promise.resolve(null), all: () => Promise.resolve(PAGES) };
  assert.deepEqual(await siteSuggestions("pt-BR", { "pt-BR": ["Minha?"] }, pages), ["Minha?"]);
  assert.deepEqual(await siteSuggestions("en", { "pt-BR": ["Minha?"] }, pages), [
    "Can I stop it?",
    "FAQ",
  ]);
  const broken = { get: () => Promise.resolve(null), all: () => Promise.reject(new Error("x")) };
  const logged = console.error;
  console.error = () => {};
  try {
    assert.deepEqual(await siteSuggestions("en", undefined, broken), []);
  } finally {
    console.error = logged;
  }
});
