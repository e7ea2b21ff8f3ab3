import type { Messages } from "@/lib/i18n/mod.ts";

/** The top bar: the site's name and the language switch. */
export function Header(
  { siteName, t, otherLang }: { siteName: string; t: Messages; otherLang: string },
) {
  return (
    <header class="topbar">
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
