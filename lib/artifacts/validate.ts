/**
 * Checks what the model sent to `create_artifact`, with messages the model can act
 * on (they go back to it as the tool's result). Client-safe.
 */
import {
  ARTIFACT_KINDS,
  type ArtifactInput,
  type ArtifactKind,
  MAX_ARTIFACT_BYTES,
  MAX_TITLE_CHARS,
} from "./types.ts";

/** The shape an artifact id must have: short, URL- and file-name-safe. */
export const ARTIFACT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The input checked, or the first problem found in it. */
export type ArtifactCheck =
  | { ok: true; input: ArtifactInput; bytes: number }
  | { ok: false; error: string };

const KiB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Checks a `create_artifact` input of unknown shape. */
export function checkArtifactInput(value: unknown): ArtifactCheck {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail("The input must be an object { artifactId?, title, kind, content }.");
  }
  const { artifactId, title, kind, content } = value as Record<string, unknown>;
  if (artifactId !== undefined && artifactId !== null) {
    if (typeof artifactId !== "string" || !ARTIFACT_ID.test(artifactId)) {
      return fail(
        `artifactId ${
          JSON.stringify(artifactId)
        } is not valid: use 1 to 64 letters, digits, "-" or "_" (the id an earlier call returned), or omit it for a new artifact.`,
      );
    }
  }
  if (typeof title !== "string" || !title.trim()) {
    return fail("title is missing: give the artifact a short title.");
  }
  if (title.length > MAX_TITLE_CHARS) {
    return fail(`title has ${title.length} characters; keep it under ${MAX_TITLE_CHARS}.`);
  }
  if (typeof kind !== "string" || !(ARTIFACT_KINDS as readonly string[]).includes(kind)) {
    return fail(`kind ${JSON.stringify(kind)} is not supported: use "html" or "svg".`);
  }
  if (typeof content !== "string" || !content.trim()) {
    return fail("content is empty: send the whole HTML document or SVG image.");
  }
  const bytes = new TextEncoder().encode(content).length;
  if (bytes > MAX_ARTIFACT_BYTES) {
    return fail(
      `content is ${KiB(bytes)}; the limit is ${
        KiB(MAX_ARTIFACT_BYTES)
      }. Make it smaller (less data, no embedded images) and call create_artifact again.`,
    );
  }
  if (kind === "svg" && !/<svg[\s>]/i.test(content)) {
    return fail(
      'kind is "svg" but content has no <svg> element: send an SVG image, or use kind "html".',
    );
  }
  const input: ArtifactInput = {
    ...(typeof artifactId === "string" ? { artifactId } : {}),
    title: title.trim(),
    kind: kind as ArtifactKind,
    content,
  };
  return { ok: true, input, bytes };
}

function fail(error: string): ArtifactCheck {
  return { ok: false, error: `Artifact not created: ${error}` };
}
