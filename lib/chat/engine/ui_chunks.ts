/**
 * One model call's stream parts as chunks of the UI message stream protocol
 * (`ai` 7). Only what a visitor's client reads is sent: provider metadata
 * rides along where the protocol carries it; warnings, timings and raw
 * provider chunks stay on the server.
 */
import type { LanguageModelStreamPart, ToolSet, UIMessageChunk } from "ai";

/** Where chunks go, in order. */
export type ChunkSink = (chunk: UIMessageChunk) => void;

/** How errors of tool calls become the text the visitor (and the model) sees. */
export type ToolErrorText = (error: unknown) => string;

/** Adds `providerMetadata` when the part has some. */
function withMeta<T extends UIMessageChunk>(chunk: T, part: { providerMetadata?: unknown }): T {
  if (part.providerMetadata != null) {
    (chunk as Record<string, unknown>).providerMetadata = part.providerMetadata;
  }
  return chunk;
}

/**
 * The UI chunk for one part, or undefined for parts the client does not see.
 * Tool calls and their results are handled by the turn (lib/chat/engine/run_turn.ts),
 * which executes them; the parts here are the ones that map one to one.
 */
export function toUiChunk(
  part: LanguageModelStreamPart<ToolSet>,
): UIMessageChunk | undefined {
  switch (part.type) {
    case "text-start":
    case "reasoning-start":
    case "reasoning-end":
      return withMeta({ type: part.type, id: part.id }, part);
    case "text-delta":
    case "reasoning-delta":
      return withMeta({ type: part.type, id: part.id, delta: part.text }, part);
    case "text-end":
      return withMeta(
        part.citations != null
          ? { type: "text-end", id: part.id, citations: part.citations }
          : { type: "text-end", id: part.id },
        part,
      );
    case "tool-input-start":
      return withMeta({
        type: "tool-input-start",
        toolCallId: part.id,
        toolName: part.toolName,
        ...(part.inputEncoding != null ? { inputEncoding: part.inputEncoding } : {}),
        ...(part.providerExecuted != null ? { providerExecuted: part.providerExecuted } : {}),
        ...(part.dynamic ? { dynamic: true } : {}),
        ...(part.title != null ? { title: part.title } : {}),
      }, part);
    case "tool-input-delta":
      return { type: "tool-input-delta", toolCallId: part.id, inputTextDelta: part.delta };
    case "source":
      if (part.sourceType === "url") {
        return withMeta(
          { type: "source-url", sourceId: part.id, url: part.url, title: part.title },
          part,
        );
      }
      return withMeta({
        type: "source-document",
        sourceId: part.id,
        mediaType: part.mediaType,
        title: part.title,
        filename: part.filename,
      }, part);
    case "file":
    case "reasoning-file":
      return withMeta({
        type: part.type,
        mediaType: part.file.mediaType,
        url: `data:${part.file.mediaType};base64,${part.file.base64}`,
      }, part);
    default:
      return undefined;
  }
}
