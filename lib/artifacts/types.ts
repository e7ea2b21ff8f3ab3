/**
 * What an artifact is, for the tool, the store, the offline model and the UI.
 * Client-safe: no imports.
 *
 * An artifact lives in the chat's messages as `create_artifact` tool parts: the
 * part's input holds the content (title, kind, content), its output the version
 * the server gave it. Every call with the same `artifactId` is a new version.
 */

/** Name of the tool. */
export const ARTIFACT_TOOL = "create_artifact";

/** The kinds of artifact the preview can show. */
export const ARTIFACT_KINDS = ["html", "svg"] as const;

/** A kind of artifact. */
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** Largest content of one version, in UTF-8 bytes. */
export const MAX_ARTIFACT_BYTES = 256 * 1024;

/** Longest title, in characters. */
export const MAX_TITLE_CHARS = 120;

/** What the model sends. */
export interface ArtifactInput {
  /** Omitted for a new artifact; an earlier artifact's id makes a new version of it. */
  artifactId?: string;
  title: string;
  kind: ArtifactKind;
  content: string;
}

/** What the tool returns when the version was made. */
export interface ArtifactCreated {
  artifactId: string;
  /** 1 for a new artifact, then 2, 3… for each call with the same id. */
  version: number;
  title: string;
  kind: ArtifactKind;
  /** UTF-8 size of the content. */
  bytes: number;
}

/** What the tool returns when the input was refused (the model reads `error` and may retry). */
export interface ArtifactRefused {
  error: string;
}

/** The tool's output. */
export type ArtifactOutput = ArtifactCreated | ArtifactRefused;

/** One version of an artifact, as the panel shows it. */
export interface ArtifactVersion extends ArtifactCreated {
  content: string;
  /** The tool call that made it. */
  toolCallId: string;
  /** The message that holds it. */
  messageId: string;
}
