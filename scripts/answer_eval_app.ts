/**
 * The app as the answer evals ask it (scripts/eval_answers.ts, scripts/eval_site_answers.ts):
 * the real handler on in-memory KV, no request log (one JSON line is their output), no rate
 * limits, no island bundles (no page is rendered).
 */
import defaultConfig from "@/fresh.config.ts";
import { createServerApp } from "@/lib/server.ts";
import type { SearchEngine } from "@/lib/search/engine.ts";
import type { SiteSearch } from "@/lib/search/types.ts";

/** The app and how to close it once every turn was read. */
export interface AnswerEvalApp {
  app: (request: Request) => Promise<Response>;
  close(): Promise<void>;
}

/** The app over `search`. */
export async function answerEvalApp(search: SiteSearch): Promise<AnswerEvalApp> {
  const kv = await Deno.openKv(":memory:");
  const big = { requestsPerMinute: 1e9, tokensPerDay: 1e12 };
  const { app } = await createServerApp({
    env: Deno.env.toObject(),
    kv,
    requestLog: null,
    search,
    islandAssets: { boot: "", islands: {}, preload: {} },
    config: { ...defaultConfig, limits: { visitor: big, ip: big } },
  });
  return {
    app,
    async close() {
      // The last turn's token count is written after its stream ends: let it land first.
      await new Promise((resolve) => setTimeout(resolve, 50));
      kv.close();
    },
  };
}

/** An embedded engine as the app's site search, lexical, with its passage and page counts. */
export function engineSiteSearch(
  engine: SearchEngine,
  counts: { passages: number; documents: number },
): SiteSearch {
  return {
    search: (query, options) => engine.search(query, options),
    passage: (id) => engine.passageById(id),
    status: () => ({ status: "ok", ...counts, mode: "lexical", embeddingModel: null }),
  };
}
