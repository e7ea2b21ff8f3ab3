import { define } from "@/lib/define.ts";
import { mcpPublicUrl } from "@/lib/mcp/public_url.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { loadShellData, type ShellData } from "@/lib/chat/shell_data.ts";
import { ChatShell, shellChrome } from "@/components/ChatShell.tsx";
import { agentChoices, knownAgent } from "@/lib/client/agents.ts";
import { answerFormPost } from "@/lib/chat/form_post.ts";
import { newChatId } from "@/lib/protocol/chat_id.ts";

interface Data extends ShellData {
  /** The agent `?agent=` names, when it is a configured one (else null, no error). */
  agent: string | null;
}

/**
 * A new, empty conversation, with the visitor's chat list; its form posted without
 * JavaScript starts a chat and shows it answered.
 */
export const handler = define.handlers<Data>({
  POST(ctx) {
    return answerFormPost(ctx, newChatId());
  },
  async GET(ctx) {
    const agent = knownAgent(
      agentChoices(ctx.app.agentConfigs.map((agent) => ({ agent })), localeOf(ctx.state)),
      ctx.url.searchParams.get("agent"),
    );
    return ctx.render({ ...await loadShellData(ctx), agent }, {
      headers: { "Cache-Control": "private, no-store" },
    });
  },
});

export default define.page<Data>(function Home({ data, state, app, url }) {
  return (
    <ChatShell
      {...shellChrome(localeOf(state), app.config, app.agentConfigs, app.artifactOrigin)}
      mcpUrl={mcpPublicUrl(app, url)}
      agent={data.agent}
      chats={data.chats}
      cursor={data.cursor}
      suggestions={data.suggestions}
    />
  );
});
