/**
 * The artifacts of a conversation, read from its `create_artifact` tool parts.
 * Client-safe (the card, the panel and the tool's version count use it).
 */
import type { UIMessage } from "ai";
import {
  ARTIFACT_KINDS,
  ARTIFACT_TOOL,
  type ArtifactCreated,
  type ArtifactKind,
  type ArtifactVersion,
} from "./types.ts";

const PART_TYPE = `tool-${ARTIFACT_TOOL}`;

/** The version a tool part made, or null (still streaming, refused, failed, another tool). */
export function versionOfPart(
  part: UIMessage["parts"][number],
  messageId: string,
): ArtifactVersion | null {
  if (part.type !== PART_TYPE) return null;
  const p = part as { state?: string; input?: unknown; output?: unknown; toolCallId: string };
  if (p.state !== "output-available" || !isCreated(p.output)) return null;
  const content = (p.input as { content?: unknown } | undefined)?.content;
  if (typeof content !== "string") return null;
  return { ...p.output, content, toolCallId: p.toolCallId, messageId };
}

/** Every artifact of `messages` by id, each with its versions in order (oldest first). */
export function collectArtifacts(messages: readonly UIMessage[]): Map<string, ArtifactVersion[]> {
  const out = new Map<string, ArtifactVersion[]>();
  for (const message of messages) {
    for (const part of message.parts) {
      const version = versionOfPart(part, message.id);
      if (!version) continue;
      const list = out.get(version.artifactId) ?? [];
      list.push(version);
      out.set(version.artifactId, list);
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.version - b.version);
  return out;
}

/** Whether a tool output says a version was made. */
export function isCreated(value: unknown): value is ArtifactCreated {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v.artifactId === "string" && typeof v.version === "number" &&
    typeof v.title === "string" && typeof v.bytes === "number" &&
    (ARTIFACT_KINDS as readonly string[]).includes(v.kind as ArtifactKind);
}
