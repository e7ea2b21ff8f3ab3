import { define } from "@/lib/define.ts";
import { llmsTxt } from "@/lib/corpus/llms_txt.ts";
import { llmsSite, textResponse } from "@/lib/corpus/llms_route.ts";
import { publicDocs } from "@/lib/corpus/public_docs.ts";

/** `/llms.txt`: every public page of the corpus, linked as Markdown (llmstxt.org). */
export const handler = define.handlers({
  async GET(ctx) {
    return textResponse(llmsTxt(await publicDocs.all(), llmsSite(ctx)));
  },
});
