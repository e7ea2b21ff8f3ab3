import type { Messages } from "@/lib/i18n/mod.ts";

/** A confirmation step for a destructive form post that works without JavaScript. */
export function ConfirmPage(
  { t, title, body, action, confirm, back }: {
    t: Messages;
    title: string;
    body: string;
    action: string;
    confirm: string;
    back: string;
  },
) {
  return (
    <main class="confirm-page">
      <h1>{title}</h1>
      <p>{body}</p>
      <form method="post" action={action} class="confirm-actions">
        <a class="button button-quiet" href={back}>{t.cancel}</a>
        <button type="submit" class="button button-danger">{confirm}</button>
      </form>
    </main>
  );
}
