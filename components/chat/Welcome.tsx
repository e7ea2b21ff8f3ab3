import type { Messages } from "@/lib/i18n/mod.ts";

/** A new chat's welcome and its suggested questions (a click sends one). */
export function Welcome(
  { t, suggestions, onSend }: {
    t: Messages;
    suggestions: string[];
    onSend: (text: string) => void;
  },
) {
  return (
    <section class="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title" class="welcome-title">{t.welcomeTitle}</h1>
      <p class="welcome-body">{t.welcomeBody}</p>
      <h2 class="visually-hidden">{t.suggestionsLabel}</h2>
      <ul class="suggestions">
        {suggestions.map((s) => (
          <li key={s}>
            <button type="button" class="suggestion" onClick={() => onSend(s)}>{s}</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
