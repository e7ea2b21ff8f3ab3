import { define } from "@/lib/define.ts";
import { llmsFullTxt } from "@/lib/corpus/llms_txt.ts";
import { llmsSite, textResponse } from "@/lib/corpus/llms_route.ts";
import { publicDocs } from "@/lib/corpus/public_docs.ts";

/** `/llms-full.txt`: the Markdown of every public page of the corpus, in one file. */
export const handler = define.handlers({
  async GET(ctx) {
    return textResponse(llmsFullTxt(await publicDocs.all(), llmsSite(ctx)));
  },
});
