/**
 * Strings of the widget frame's own controls (islands/WidgetChat.tsx), Portuguese and
 * English; the rest comes from the main catalog. Apart from widget.ts, which the small
 * loader on the host page carries.
 */
import type { Locale } from "./mod.ts";

/** Portuguese. */
export const ptBRWidgetFrame = {
  dataDeleted: "Seus dados foram apagados. Esta é uma conversa nova.",
  deleteFailed: "Não foi possível apagar seus dados. Tente de novo.",
  chatsFailed: "Não foi possível carregar suas conversas.",
  backToChat: "Voltar à conversa",
};

/** English. */
export const enWidgetFrame: typeof ptBRWidgetFrame = {
  dataDeleted: "Your data was deleted. This is a new conversation.",
  deleteFailed: "Your data could not be deleted. Try again.",
  chatsFailed: "Your conversations could not be loaded.",
  backToChat: "Back to the conversation",
};

/** The widget frame's strings of `locale`. */
export function widgetFrameMessages(locale: Locale): typeof ptBRWidgetFrame {
  return locale === "en" ? enWidgetFrame : ptBRWidgetFrame;
}
