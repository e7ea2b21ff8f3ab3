/**
 * The Python FAQ written in the markups FAQ pages use, imported as an owner imports a site,
 * then asked its natural questions: what `corpus:import` keeps of each markup.
 *
 *   deno task eval:markup [--lang pt|en] [--set heldout|dev] [--markup apg,bootstrap,…]
 *     [--details <folder>]   (each markup's answers, as eval:answers --details writes them)
 *
 * Each markup renders the same entries (tests/fixtures/pyfaq) as eight pages, one per FAQ
 * part, into a folder; `importCorpus` reads the folder, the chunker makes the passages, and
 * each passage whose heading is an entry's question stands for that entry. Prints one JSON
 * line per markup: entries kept as units (their question heading the passage holding their
 * answer, read as an FAQ entry), and the offline model's answers on the natural questions
 * (scripts/eval_answers.ts): gold span held, and right entry quoted or offered as a related
 * question under the answer.
 */
import { parseArgs } from "node:util";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importCorpus } from "@/lib/corpus/import/run.ts";
import { corpusPassages } from "@/lib/search/corpus_index.ts";
import { loadCorpus } from "@/lib/search/manifest.ts";
import { type BeirDoc, parseJsonl } from "@/lib/search/beir.ts";
import { entryQuestion, isFaqEntry } from "@/lib/search/question_kind.ts";
import { runAnswerEval } from "./eval_answers.ts";

type Entry = BeirDoc & { title: string };

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** How each markup writes one entry (`i` numbers it on its page). */
export const MARKUPS: Record<string, (e: Entry, i: number, lang: "pt" | "en") => string> = {
  // Headings, as the Python FAQ itself (Sphinx) writes them.
  headings: (e, i) => `<h2 id="q${i}">${escape(e.title)}</h2><p>${escape(e.text)}</p>`,
  // The same headings with their question marks left off, as many FAQ pages write them.
  "headings without ?": (e, i) =>
    `<h2 id="q${i}">${escape(e.title.replace(/\s*\?\s*$/, ""))}</h2><p>${escape(e.text)}</p>`,
  details: (e) =>
    `<details><summary>${escape(e.title)}</summary><p>${escape(e.text)}</p></details>`,
  // A bold question leading its answer's paragraph.
  "bold lead": (e) => `<p><strong>${escape(e.title)}</strong> ${escape(e.text)}</p>`,
  // "P: …? / R: …" in Portuguese, "Q: …? / A: …" in English.
  "q/a lines": (e, _i, lang) =>
    `<p>${lang === "pt" ? "P" : "Q"}: ${escape(e.title)}</p><p>${lang === "pt" ? "R" : "A"}: ${
      escape(e.text)
    }</p>`,
  // The W3C's accordion pattern: the first panel open, the others `hidden`.
  apg: (e, i) =>
    `<h3><button type="button" aria-expanded="${i === 0}" aria-controls="p${i}" id="b${i}">${
      escape(e.title)
    }</button></h3><div id="p${i}" role="region" aria-labelledby="b${i}"${
      i === 0 ? "" : " hidden"
    }><p>${escape(e.text)}</p></div>`,
  bootstrap: (e, i) =>
    `<div class="accordion-item"><h2 class="accordion-header"><button class="accordion-button collapsed" type="button" data-bs-toggle="collapse" data-bs-target="#c${i}" aria-expanded="false" aria-controls="c${i}">${
      escape(e.title)
    }</button></h2><div id="c${i}" class="accordion-collapse collapse" data-bs-parent="#faq"><div class="accordion-body"><p>${
      escape(e.text)
    }</p></div></div></div>`,
  // Script-driven panels: a clickable line, the answer folded with inline styles.
  scripted: (e, i) =>
    `<div class="faq-item"><div class="faq-q" role="button" tabindex="0" aria-expanded="false" aria-controls="a${i}">${
      escape(e.title)
    }</div><div class="faq-a" id="a${i}" style="display:none" aria-hidden="true"><p>${
      escape(e.text)
    }</p></div></div>`,
  // A question button a script toggles, with no ARIA; the answer folded by an inline style.
  "plain buttons": (e) =>
    `<div class="faq"><button class="faq-q" onclick="toggle(this)">${
      escape(e.title)
    }</button><div class="faq-a" style="display:none"><p>${escape(e.text)}</p></div></div>`,
  // A CSS-only accordion: a checkbox, its label the question, the answer shown by :checked.
  "css accordion": (e, i) =>
    `<div class="tab"><input type="checkbox" id="t${i}"><label class="tab-label" for="t${i}">${
      escape(e.title)
    }</label><div class="tab-content"><p>${escape(e.text)}</p></div></div>`,
  // Plain lines and folded answers whose only structure is the page's FAQPage data.
  "json-ld": (e, i) =>
    `<div class="faq-item"><div class="faq-question">${
      escape(e.title)
    }</div><div class="faq-answer" id="a${i}" style="display: none"><p>${
      escape(e.text)
    }</p></div></div>`,
  // Entries rendered by script in the browser: the HTML holds only the FAQPage data.
  "json-ld only": () => "",
  // One page: each FAQ part a tab (all panels but the first hidden), its entries headings.
  tabs: (e, i) => MARKUPS.headings(e, i, "en").replace(/<(\/?)h2\b/g, "<$1h3"),
};

/** The Python FAQ's page titles (docs.python.org/3/faq/, and its pt-BR translation). */
const TITLES: Record<"pt" | "en", Record<string, string>> = {
  pt: {
    general: "FAQ geral sobre Python",
    programming: "FAQ de programação",
    design: "FAQ sobre design e histórico",
    library: "FAQ sobre bibliotecas e extensões",
    extending: "FAQ sobre extensão/incorporação",
    windows: "FAQ do Python no Windows",
    gui: "FAQ da interface gráfica do usuário",
    installed: "FAQ “Por que o Python está instalado em meu computador?”",
  },
  en: {
    general: "General Python FAQ",
    programming: "Programming FAQ",
    design: "Design and History FAQ",
    library: "Library and Extension FAQ",
    extending: "Extending/Embedding FAQ",
    windows: "Python on Windows FAQ",
    gui: "Graphic User Interface FAQ",
    installed: "“Why is Python Installed on my Computer?” FAQ",
  },
};

const INTRO: Record<"pt" | "en", string> = {
  pt: "Perguntas frequentes sobre o Python, respondidas pela comunidade.",
  en: "Frequently asked questions about Python, answered by its community.",
};

/** One FAQ part as a page in `markup`, with its FAQPage data for the JSON-LD markups. */
function page(part: string, entries: Entry[], markup: string, lang: "pt" | "en"): string {
  const title = escape(TITLES[lang][part] ?? part);
  const data = markup.startsWith("json-ld")
    ? `<script type="application/ld+json">${
      JSON.stringify({
        "@context": "https://schema.org",
        "@type": "FAQPage",
        mainEntity: entries.map((e) => ({
          "@type": "Question",
          name: e.title,
          acceptedAnswer: { "@type": "Answer", text: `<p>${escape(e.text)}</p>` },
        })),
      }).replace(/</g, "\\u003c")
    }</script>`
    : "";
  const body = entries.map((e, i) => MARKUPS[markup](e, i, lang)).join("\n");
  return `<!doctype html><html lang="${
    lang === "pt" ? "pt-BR" : "en"
  }"><head><meta charset="utf-8">` +
    `<title>${title} | Python</title>${data}</head><body><header><nav><a href="/">Home</a></nav></header>` +
    `<main><h1>${title}</h1><p>${
      INTRO[lang]
    }</p><div class="accordion" id="faq">${body}</div></main>` +
    `<footer>Python Software Foundation</footer></body></html>`;
}

/** Every FAQ part on one page, a tab each: the tab list first, then the panels. */
function tabbedPage(parts: Map<string, Entry[]>, lang: "pt" | "en"): string {
  const names = [...parts.keys()];
  const tabs = names.map((part, i) =>
    `<button role="tab" id="t-${part}" aria-selected="${i === 0}" aria-controls="${part}">${
      escape(TITLES[lang][part] ?? part)
    }</button>`
  ).join("");
  const panels = names.map((part, i) =>
    `<div id="${part}" role="tabpanel" aria-labelledby="t-${part}"${i === 0 ? "" : " hidden"}>${
      parts.get(part)!.map((e, j) => MARKUPS.tabs(e, j, lang)).join("\n")
    }</div>`
  ).join("\n");
  return `<!doctype html><html lang="${
    lang === "pt" ? "pt-BR" : "en"
  }"><head><meta charset="utf-8">` +
    `<title>Python FAQ</title></head><body><main><h1>Python FAQ</h1><p>${INTRO[lang]}</p>` +
    `<div role="tablist">${tabs}</div>${panels}</main></body></html>`;
}

/**
 * The imported site's passages as a BEIR corpus: a passage headed by an entry's question
 * gets the entry's id (so the gold judgements apply), every other passage its own.
 */
export async function importedCorpus(
  entries: Entry[],
  markup: string,
  lang: "pt" | "en",
  dir: string,
): Promise<{ docs: BeirDoc[]; units: number }> {
  const site = join(dir, "site");
  const corpus = join(dir, "corpus");
  mkdirSync(corpus, { recursive: true });
  writeFileSync(join(corpus, "manifest.json"), "[]\n");
  const parts = Map.groupBy(entries, (e) => e._id.replace(/-\d+$/, ""));
  if (markup === "tabs") {
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, "index.html"), tabbedPage(parts, lang));
  }
  for (const [part, list] of markup === "tabs" ? [] : parts) {
    mkdirSync(join(site, part), { recursive: true });
    writeFileSync(join(site, part, "index.html"), page(part, list, markup, lang));
  }
  await importCorpus({
    source: site,
    corpusDir: corpus,
    baseUrl: "https://faq.example",
    license: "PSF-2.0",
    lang,
    idPrefix: "faq",
  });
  const key = (question: string) => question.trim().replace(/\s*\?$/, "");
  const byQuestion = new Map(entries.map((e) => [key(e.title), e]));
  const used = new Set<string>();
  let units = 0;
  const docs = corpusPassages(await loadCorpus(corpus)).map((p): BeirDoc => {
    const entry = byQuestion.get(key(entryQuestion(p.title)));
    if (entry && !used.has(entry._id)) {
      used.add(entry._id);
      const whole = p.text.replace(/\s+/g, " ").startsWith(entry.text.slice(0, 40));
      if (whole && isFaqEntry(p.title)) units++;
      return { _id: entry._id, title: p.title, text: p.text };
    }
    return { _id: p.id, title: p.title, text: p.text };
  });
  return { docs, units };
}

const F = "tests/fixtures";

/** Runs the eval with command-line `args`, printing one JSON line per markup. */
export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      lang: { type: "string", default: "pt" },
      set: { type: "string", default: "heldout" },
      markup: { type: "string" },
      details: { type: "string" },
    },
  });
  const lang = values.lang === "en" ? "en" : "pt";
  if (values.lang !== lang) throw new Error(`Unknown --lang "${values.lang}": use pt or en`);
  if (values.set !== "heldout" && values.set !== "dev") {
    throw new Error(`Unknown --set "${values.set}": use heldout or dev`);
  }
  const prefix = values.set === "dev" ? "" : "heldout_";
  // Made before the first markup runs: a folder that is not there would lose the whole run.
  if (values.details) mkdirSync(values.details, { recursive: true });
  const markups = values.markup ? values.markup.split(",") : Object.keys(MARKUPS);
  for (const m of markups) if (!MARKUPS[m]) throw new Error(`Unknown --markup "${m}"`);
  const file = `${F}/pyfaq/corpus_${lang}.jsonl`;
  const entries = parseJsonl<Entry>(readFileSync(file, "utf8"), file);
  for (const markup of markups) {
    const dir = Deno.makeTempDirSync({ prefix: "eval-markup-" });
    try {
      const { docs, units } = await importedCorpus(entries, markup, lang, dir);
      const corpusFile = join(dir, "corpus.jsonl");
      writeFileSync(corpusFile, docs.map((d) => JSON.stringify(d)).join("\n") + "\n");
      const answers = await runAnswerEval([
        "--corpus",
        corpusFile,
        "--queries",
        `${F}/pyfaq/${prefix}queries_${lang}.jsonl`,
        "--qrels",
        `${F}/pyfaq/${prefix}qrels_${lang}.tsv`,
        "--lang",
        lang,
        ...(values.details
          ? ["--details", join(values.details, `${markup.replace(/\W+/g, "-")}_${lang}.jsonl`)]
          : []),
      ]);
      console.log(JSON.stringify({
        markup,
        lang,
        set: values.set,
        entries: entries.length,
        units,
        passages: docs.length,
        gold_contained: answers.gold_contained,
        answered_or_offered: answers.answered_or_offered,
        not_covered: answers.not_covered,
        mean_words: answers.mean_words,
      }));
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(2);
  }
}
