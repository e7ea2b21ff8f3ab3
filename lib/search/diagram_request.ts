/**
 * Whether a visitor asks for a drawing of how the assistant works ("desenhe um diagrama de
 * como o assistente funciona", "draw a diagram of how the assistant works"). The offline model
 * answers such a request with a diagram, and the chat's search prefetch leaves it to the model,
 * which searches with a query of its own; both read the request here.
 */
import { fold } from "./detect_lang.ts";

const DRAW_WORDS = new Set([
  "diagrama",
  "fluxograma",
  "esquema",
  "desenhe",
  "desenha",
  "desenhar",
  "diagram",
  "flowchart",
  "draw",
  "sketch",
  "chart",
]);
const SUBJECT_WORDS = new Set(["assistente", "assistant", "chat", "chatbot", "bot"]);

/** Whether `text` asks for a drawing of how the assistant works. */
export function isDiagramRequest(text: string): boolean {
  const words = fold(text).split(/[^\p{L}]+/u);
  return words.some((w) => DRAW_WORDS.has(w)) && words.some((w) => SUBJECT_WORDS.has(w));
}
