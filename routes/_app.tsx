import type { AppProps } from "@/lib/http/types.ts";
import type { AppServices } from "@/lib/services.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { headOf } from "@/lib/http/head.ts";
import { localize } from "@/lib/i18n/localized.ts";

/** The document around every page. */
export default function App({ Component, state, app }: AppProps<AppServices>) {
  const locale = localeOf(state);
  const t = messages(locale);
  const head = headOf(state);
  return (
    <html lang={t.htmlLang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#f7f7f8" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#16171a" media="(prefers-color-scheme: dark)" />
        <title>{`${head.title ?? t.tagline} — ${localize(app.config.site.name, locale)}`}</title>
        {head.alternates?.map((a) => (
          <link key={a.hreflang} rel="alternate" hreflang={a.hreflang} href={a.href} />
        ))}
        <link rel="icon" href="/icon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/styles.css" />
      </head>
      <body>
        <Component />
      </body>
    </html>
  );
}
