import type { Messages } from "@/lib/i18n/mod.ts";
import { Icon } from "./Icon.tsx";

/** The top bar: the site's name and the language switch. */
export function Header(
  { siteName, t, otherLang, drawer = false }: {
    siteName: string;
    t: Messages;
    otherLang: string;
    /** Show the button that opens the chat-list drawer on narrow screens. */
    drawer?: boolean;
  },
) {
  return (
    <header class="topbar">
      {
        /* The drawer's switch sits in the banner, beside its button, so that every control of
        the page is inside a landmark; the shell reads its state with :has(). */
      }
      {drawer && <input type="checkbox" id="drawer-toggle" class="drawer-toggle visually-hidden" />}
      {drawer && (
        <label for="drawer-toggle" class="drawer-button" title={t.openChats}>
          <Icon d="M4 7h16M4 12h16M4 17h16" size={20} weight={2} />
          <span class="visually-hidden">{t.openChats}</span>
        </label>
      )}
      <a class="brand" href="/">
        <svg class="brand-mark" viewBox="0 0 24 24" aria-hidden="true" width="24" height="24">
          <path
            d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.2 3.6A.5.5 0 0 1 5 19.2V16h.5"
            fill="none"
            stroke="currentColor"
            stroke-width="1.8"
            stroke-linejoin="round"
          />
          <circle cx="9" cy="9.5" r="1.2" fill="currentColor" />
          <circle cx="12" cy="9.5" r="1.2" fill="currentColor" />
          <circle cx="15" cy="9.5" r="1.2" fill="currentColor" />
        </svg>
        <span class="brand-text">
          <span class="brand-name">{siteName}</span>
          <span class="brand-tagline">{t.tagline}</span>
        </span>
      </a>
      <nav class="topbar-actions">
        <a
          class="lang-switch"
          href={`/lang/${otherLang}`}
          hreflang={otherLang}
          aria-label={t.switchLanguageLabel}
        >
          {t.switchLanguage}
        </a>
      </nav>
    </header>
  );
}
