import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { AppConfig } from "@/lib/config.ts";
import { type Locale, type Messages, messages as catalog } from "@/lib/i18n/mod.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { type AgentChoice, agentChoices } from "@/lib/client/agents.ts";
import type { ShellData } from "@/lib/chat/shell_data.ts";
import ChatMessages from "@/islands/ChatMessages.tsx";
import { ChatList } from "./ChatList.tsx";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";
import { localize } from "@/lib/i18n/localized.ts";

/** Where "how it works" lives in each language. */
export const HOW_IT_WORKS_URL: Record<Locale, string> = {
  "pt-BR": "/sobre/como-funciona",
  en: "/en/about/how-it-works",
};

/** The shell's props that follow from the page's language and the site's config. */
export interface ShellChrome {
  locale: Locale;
  t: Messages;
  siteName: string;
  /** The configured agents, visitor-facing fields only (never their headers). */
  agents: AgentChoice[];
  /** Where artifact previews are served from (`ARTIFACT_ORIGIN`), or null for `srcdoc` frames. */
  artifactOrigin?: string | null;
}

/** The shell's props that follow from the page's language, the site's config and its agents. */
export function shellChrome(
  locale: Locale,
  config: AppConfig,
  agents: readonly AgentConfig[] = [],
  artifactOrigin: string | null = null,
): ShellChrome {
  return {
    locale,
    t: catalog(locale),
    siteName: localize(config.site.name, locale),
    agents: agentChoices(agents.map((agent) => ({ agent })), locale),
    artifactOrigin,
  };
}

interface ChatShellProps extends ShellData, ShellChrome {
  chatId?: string | null;
  messages?: ChatMessage[];
  prerendered?: Record<string, string>;
  /** The agent preselected on a new chat (a known id from `?agent=`). */
  agent?: string | null;
  /** The public URL of the site's MCP server, for the footer's snippets; null: none. */
  mcpUrl?: string | null;
}

/** The page around the conversation: header, chat list, the message-list island, footer. */
export function ChatShell(
  {
    locale,
    t,
    siteName,
    suggestions,
    agents,
    agent = null,
    artifactOrigin = null,
    chatId = null,
    messages = [],
    prerendered,
    chats,
    cursor,
    mcpUrl = null,
  }: ChatShellProps,
) {
  return (
    <div class="shell with-sidebar">
      <Header siteName={siteName} t={t} otherLang={locale === "en" ? "pt-BR" : "en"} drawer />
      <label for="drawer-toggle" class="drawer-backdrop" aria-hidden="true"></label>
      <ChatList t={t} chats={chats} cursor={cursor} currentId={chatId} />
      <main class="chat" id="main">
        <ChatMessages
          locale={locale}
          suggestions={suggestions}
          chatId={chatId}
          initialMessages={messages}
          prerendered={prerendered}
          agents={agents}
          agent={agent}
          artifactOrigin={artifactOrigin}
        />
      </main>
      <Footer t={t} howUrl={HOW_IT_WORKS_URL[locale]} mcpUrl={mcpUrl} locale={locale} />
      <script src="/chat_list.js" defer></script>
    </div>
  );
}
