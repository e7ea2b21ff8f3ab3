/**
 * Syntax highlighting for code blocks in answers: highlight.js core with the
 * languages a site's visitors meet most. Loaded only when an answer has code.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const LANGUAGES = { bash, css, javascript, json, python, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(["sh", "shell", "zsh"], { languageName: "bash" });
hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

/** Highlights code elements in place; unknown languages stay plain. */
export function highlightAll(elements: Iterable<HTMLElement>): void {
  for (const el of elements) {
    el.dataset.hl = "1";
    const lang = /language-([\w-]+)/.exec(el.className)?.[1];
    if (!lang || !hljs.getLanguage(lang)) continue;
    // highlight.js escapes the text it is given; it never sees HTML from the answer.
    el.innerHTML =
      hljs.highlight(el.textContent ?? "", { language: lang, ignoreIllegals: true }).value;
    el.classList.add("hljs");
  }
}
