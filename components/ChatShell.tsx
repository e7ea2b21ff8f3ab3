import type { ChatMessage } from "@/lib/chat/types.ts";
import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import ChatMessages from "@/islands/ChatMessages.tsx";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** Where "how it works" lives in each language. */
export const HOW_IT_WORKS_URL: Record<Locale, string> = {
  "pt-BR": "/sobre/como-funciona",
  en: "/en/about/how-it-works",
};

interface ChatShellProps {
  locale: Locale;
  t: Messages;
  siteName: string;
  suggestions: string[];
  chatId?: string | null;
  messages?: ChatMessage[];
}

/** The page around the conversation: header, the message-list island, footer. */
export function ChatShell(
  { locale, t, siteName, suggestions, chatId = null, messages = [] }: ChatShellProps,
) {
  return (
    <div class="shell">
      <Header siteName={siteName} t={t} otherLang={locale === "en" ? "pt-BR" : "en"} />
      <main class="chat" id="main">
        <ChatMessages
          locale={locale}
          suggestions={suggestions}
          chatId={chatId}
          initialMessages={messages}
        />
      </main>
      <Footer t={t} howUrl={HOW_IT_WORKS_URL[locale]} />
    </div>
  );
}
