/**
 * Citation quality with and without retrieval before the first model call: FaQuAD
 * questions (tests/fixtures/faquad, every 6th test query by default) asked through
 * POST /api/chat of the real app, searching the FaQuAD paragraphs as the site, with the
 * offline model and with a scripted model that searches the question and cites the
 * first passage, in `retrieval: "prefetch"` and `"tool"` mode.
 *
 *   deno run -A tests/bench/prefetch_citations.ts [--every 6]
 *
 * Prints a markdown table: per model and mode, the share of answers with at least one
 * valid citation, the share citing the question's own paragraph, and how many answers
 * are the same words in both modes. Also how many questions the prefetch skipped as
 * messages for the owner (lib/chat/prefetch.ts).
 */
import { beirSiteSearch } from "@/scripts/eval_answers.ts";
import { parseArgs } from "node:util";
import type { ToolSet } from "ai";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import type { Retrieval } from "@/lib/config.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import { isOwnerMessage } from "@/lib/chat/prefetch.ts";
import { createLocalModel, passagesOf } from "@/lib/models/local_model.ts";
import { createScriptedModel, scriptedRegistry, type ScriptedStep } from "@/lib/models/testing.ts";
import { type BeirDoc, parseJsonl, parseQrels } from "@/lib/search/beir.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { CookieJar, newChatId, postChat, testConfig, userMessage } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

const FAQUAD = new URL("../fixtures/faquad/", import.meta.url);

/** The FaQuAD paragraphs as a site: one public page per paragraph, `/doc/<id>`. */
export function faquadSite(): SiteSearch {
  const docs = parseJsonl<BeirDoc>(
    Deno.readTextFileSync(new URL("corpus.jsonl", FAQUAD)),
    "corpus.jsonl",
  );
  return beirSiteSearch(docs, "pt");
}

/** Test questions with their relevant paragraph, every `every`-th one. */
export function faquadQuestions(every: number): Array<{ text: string; doc: string }> {
  const queries = parseJsonl<{ _id: string; text: string }>(
    Deno.readTextFileSync(new URL("queries.jsonl", FAQUAD)),
    "queries.jsonl",
  );
  const qrels = parseQrels(Deno.readTextFileSync(new URL("qrels/test.tsv", FAQUAD)));
  return queries.flatMap((q) => {
    const rel = qrels.get(q._id);
    return rel ? [{ text: q.text, doc: [...rel.keys()][0] }] : [];
  }).filter((_, i) => i % every === 0);
}

/** A model that searches the question unless it has a result, then cites the first passage. */
function citingModel() {
  const step = (options: LanguageModelV4CallOptions): ScriptedStep => {
    const lastUser = options.prompt.findLastIndex((m) => m.role === "user");
    const results = options.prompt.slice(lastUser + 1).flatMap((m) =>
      m.role === "tool" ? m.content.flatMap((p) => p.type === "tool-result" ? [p.output] : []) : []
    );
    if (results.length === 0) {
      const message = options.prompt[lastUser];
      const text = message?.role === "user"
        ? message.content.map((p) => p.type === "text" ? p.text : "").join(" ").trim()
        : "";
      return { type: "tool-call", toolName: "search_site", input: { query: text } };
    }
    const first = passagesOf(results.at(-1))?.find((p) => p.n !== undefined);
    return {
      type: "text",
      text: first ? `Segundo o site, ${first.title} [${first.n}].` : "O site não trata disso.",
    };
  };
  return createScriptedModel([step]);
}

interface Outcome {
  cited: boolean;
  citesOwnParagraph: boolean;
  text: string;
}

/** Asks every question in one chat each; what each answer cited. */
async function askAll(
  model: "offline" | "scripted",
  retrieval: Retrieval,
  questions: Array<{ text: string; doc: string }>,
  search: SiteSearch,
): Promise<Outcome[]> {
  const models = model === "scripted"
    ? scriptedRegistry(citingModel())
    : scriptedRegistry(Object.assign(createLocalModel(), { calls: [] }));
  const server = await startTestServer({
    config: testConfig({ retrieval }),
    search,
    services: { models },
  });
  try {
    const out: Outcome[] = [];
    for (const q of questions) {
      const id = newChatId();
      const res = await postChat(server.url, {
        id,
        trigger: "submit-message",
        message: userMessage(q.text),
      }, { jar: new CookieJar() });
      await res.text();
      const saved = await server.services.store.loadMessages(id) as ChatMessage[];
      const answer = saved[1];
      const urls = new Map(
        answer.parts.flatMap((p) => p.type === "source-url" ? [[p.sourceId, p.url]] : []),
      );
      const text = answer.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join("");
      const numbers = [...text.matchAll(/\[(\d+)\]/g)].map((m) => m[1]);
      out.push({
        cited: (answer.metadata?.citations?.valid ?? 0) > 0,
        citesOwnParagraph: numbers.some((n) =>
          urls.get(n)?.endsWith(`/doc/${encodeURIComponent(q.doc)}`)
        ),
        text,
      });
    }
    return out;
  } finally {
    await server.close();
  }
}

/** The table, in markdown. */
export async function citationReport(every = 6): Promise<string> {
  const search = faquadSite();
  const questions = faquadQuestions(every);
  const share = (xs: boolean[]) => `${(100 * xs.filter(Boolean).length / xs.length).toFixed(1)}%`;
  const rows: string[] = [];
  for (const model of ["offline", "scripted"] as const) {
    const prefetch = await askAll(model, "prefetch", questions, search);
    const tool = await askAll(model, "tool", questions, search);
    const same = prefetch.filter((a, i) => a.text === tool[i].text).length;
    for (const [mode, outcomes] of [["prefetch", prefetch], ["tool", tool]] as const) {
      rows.push(
        `| ${model} | ${mode} | ${outcomes.length} | ${share(outcomes.map((o) => o.cited))} | ${
          share(outcomes.map((o) => o.citesOwnParagraph))
        } | ${same} / ${outcomes.length} |`,
      );
    }
  }
  const tools = { search_site: {}, sendMessageToOwner: {} } as unknown as ToolSet;
  const skipped =
    questions.filter((q) =>
      isOwnerMessage([{ role: "user", content: [{ type: "text", text: q.text }] }], tools)
    ).length;
  return [
    `FaQuAD test questions (${every === 1 ? "all" : `one in ${every}`}: ${questions.length}), ` +
    "its 249 paragraphs as the site;",
    `questions the prefetch skips as messages for the owner: ${skipped}.`,
    "",
    "| model | retrieval | answers | with a valid citation | citing the question's own paragraph | same words in both modes |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...rows,
  ].join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { every: { type: "string" } } });
  const every = Number(values.every ?? 6);
  if (!Number.isInteger(every) || every < 1) {
    console.error(`--every must be a whole number from 1, got "${values.every}".`);
    Deno.exit(2);
  }
  console.log(await citationReport(every));
}
