import type { Signal } from "@preact/signals";
import type { Messages } from "@/lib/i18n/mod.ts";
import type { Editing } from "@/lib/client/use_conversation.ts";

/**
 * The visitor's last question, in place, as a form: saving sends the new text as that
 * message (the answers after it are replaced); Escape or Cancel drop the edit.
 */
export function EditForm(
  { t, editing, onSave }: {
    t: Messages;
    /** Non-null while this form shows. */
    editing: Signal<Editing | null>;
    onSave: (text: string, messageId: string) => void;
  },
) {
  const { id, text } = editing.value!;
  return (
    <form
      class="edit-form"
      onSubmit={(e) => {
        e.preventDefault();
        const text = editing.value?.text.trim();
        editing.value = null;
        if (text) onSave(text, id);
      }}
    >
      <label class="visually-hidden" for="edit-input">{t.edit}</label>
      <textarea
        id="edit-input"
        value={text}
        onInput={(e) => (editing.value = { id, text: e.currentTarget.value })}
        onKeyDown={(e) => {
          if (e.key === "Escape") editing.value = null;
        }}
        ref={(el) => el?.focus()}
      />
      <div class="edit-actions">
        <button type="button" class="button-quiet" onClick={() => (editing.value = null)}>
          {t.cancel}
        </button>
        <button type="submit" class="button-primary">{t.editSave}</button>
      </div>
    </form>
  );
}
