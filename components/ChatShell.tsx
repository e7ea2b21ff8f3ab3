import type { Locale, Messages } from "@/lib/i18n/mod.ts";
import ChatMessages from "@/islands/ChatMessages.tsx";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** Where "how it works" lives in each language. */
export const HOW_IT_WORKS_URL: Record<Locale, string> = {
  "pt-BR": "/sobre/como-funciona",
  en: "/en/about/how-it-works",
};

/** The page around the conversation: header, the message-list island, footer. */
export function ChatShell(
  { locale, t, siteName, suggestions }: { locale: Locale; t: Messages; siteName: string; suggestions: string[] },
) {
  return (
    <div class="shell">
      <Header siteName={siteName} t={t} otherLang={locale === "en" ? "pt-BR" : "en"} />
      <main class="chat" id="main">
        <ChatMessages locale={locale} suggestions={suggestions} />
      </main>
      <Footer t={t} howUrl={HOW_IT_WORKS_URL[locale]} />
    </div>
  );
}
