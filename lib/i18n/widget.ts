/**
 * The widget's own strings (the loader on the host page and the frame's bar), Portuguese
 * and English. Apart from pt_br.ts and en.ts so that the loader, which must stay small,
 * carries only these.
 */
import type { Locale } from "./mod.ts";

/** Portuguese. */
export const ptBRWidget = {
  widgetOpen: "Abrir o assistente",
  widgetClose: "Fechar o assistente",
  widgetTitle: "Assistente do site",
  widgetNotAllowed:
    "Este site não pode usar o assistente: a origem dele não está entre as permitidas (origin_not_allowed).",
  widgetLoadFailed: "O assistente não pôde ser carregado. Tente de novo mais tarde.",
};

/** English. */
export const enWidget: typeof ptBRWidget = {
  widgetOpen: "Open the assistant",
  widgetClose: "Close the assistant",
  widgetTitle: "Site assistant",
  widgetNotAllowed:
    "This site may not use the assistant: its origin is not among the allowed ones (origin_not_allowed).",
  widgetLoadFailed: "The assistant could not be loaded. Try again later.",
};

/** The widget's strings. */
export type WidgetMessages = typeof ptBRWidget;

/** The widget's catalog of `locale`. */
export function widgetMessages(locale: Locale): WidgetMessages {
  return locale === "en" ? enWidget : ptBRWidget;
}
