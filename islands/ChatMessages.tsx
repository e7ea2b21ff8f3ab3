import { useEffect, useRef } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { type Locale, messages } from "@/lib/i18n/mod.ts";

/** Props of the message list; all serialisable. */
export interface ChatMessagesProps {
  locale: Locale;
  suggestions: string[];
}

/** The conversation: welcome, suggested questions, messages and the composer. */
export default function ChatMessages({ locale, suggestions }: ChatMessagesProps) {
  const t = messages(locale);
  const root = useRef<HTMLDivElement>(null);
  const input = useSignal("");
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    root.current?.setAttribute("data-hydrated", "true");
  }, []);

  function submit(text: string) {
    input.value = text;
    textarea.current?.focus();
  }

  return (
    <div class="conversation" ref={root}>
      <div class="messages" role="log" aria-live="off">
        <section class="welcome" aria-labelledby="welcome-title">
          <h1 id="welcome-title" class="welcome-title">{t.welcomeTitle}</h1>
          <p class="welcome-body">{t.welcomeBody}</p>
          <h2 class="visually-hidden">{t.suggestionsLabel}</h2>
          <ul class="suggestions">
            {suggestions.map((s) => (
              <li key={s}>
                <button type="button" class="suggestion" onClick={() => submit(s)}>{s}</button>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <label class="visually-hidden" for="composer-input">{t.composerLabel}</label>
        <textarea
          id="composer-input"
          ref={textarea}
          rows={1}
          placeholder={t.composerPlaceholder}
          value={input.value}
          onInput={(e) => (input.value = e.currentTarget.value)}
        />
        <button type="submit" class="send" aria-label={t.send} title={t.send}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path d="M4 12h14M12 5l7 7-7 7" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
          </svg>
        </button>
      </form>
    </div>
  );
}
