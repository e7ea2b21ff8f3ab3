/**
 * The `create_artifact` tool: a self-contained HTML page or SVG image shown to the
 * visitor in a sandboxed panel. The same `artifactId` again makes a new version.
 *
 * The content travels in the tool call's input and stays there (in the streamed and
 * saved tool part); the output says which artifact and version it became, or why the
 * input was refused, in words the model can act on. The schema the model sees is
 * strict; the check that counts is {@linkcode checkArtifactInput} in `execute`, so a
 * bad input comes back to the model as a clear message rather than a generic error.
 *
 * Server-only.
 */
import { jsonSchema, type ModelMessage, tool } from "ai";
import { ARTIFACT_TOOL, type ArtifactInput, type ArtifactOutput } from "@/lib/artifacts/types.ts";
import { MAX_ARTIFACT_BYTES, MAX_TITLE_CHARS } from "@/lib/artifacts/types.ts";
import { checkArtifactInput } from "@/lib/artifacts/validate.ts";
import { isCreated } from "@/lib/artifacts/versions.ts";

export { ARTIFACT_TOOL };

// Built once, like the search tool's schema. Validation passes everything through: see above.
const INPUT = jsonSchema<ArtifactInput>({
  type: "object",
  properties: {
    artifactId: {
      type: "string",
      description:
        "Omit for a new artifact. To change an artifact you made earlier, pass the artifactId its result returned: that makes a new version.",
    },
    title: { type: "string", maxLength: MAX_TITLE_CHARS, description: "Short title" },
    kind: { type: "string", enum: ["html", "svg"] },
    content: {
      type: "string",
      description: `The complete, self-contained document (at most ${
        MAX_ARTIFACT_BYTES / 1024
      } KiB): inline CSS and JS only, no external URLs, no network.`,
    },
  },
  required: ["title", "kind", "content"],
  additionalProperties: false,
}, { validate: (value) => ({ success: true, value: value as ArtifactInput }) });

/** Builds the tool for one turn (versions made in the turn are counted with the history's). */
export function createArtifactTool(options: { newId?: () => string } = {}) {
  const newId = options.newId ?? (() => "a" + crypto.randomUUID().replaceAll("-", "").slice(0, 12));
  const issued = new Map<string, number>();
  return tool({
    description:
      "Show the visitor a visual answer — a chart, a diagram, a small interactive widget — as a self-contained HTML page or SVG image, displayed in an isolated panel beside the chat. It cannot reach the network. To revise an artifact, call it again with its artifactId.",
    inputSchema: INPUT,
    execute(input, { messages }): ArtifactOutput {
      const checked = checkArtifactInput(input);
      if (!checked.ok) return { error: checked.error };
      const { artifactId = newId(), title, kind } = checked.input;
      const version = Math.max(latestVersion(messages, artifactId), issued.get(artifactId) ?? 0) +
        1;
      issued.set(artifactId, version);
      return { artifactId, version, title, kind, bytes: checked.bytes };
    },
    // The content is in the model's own tool call already: the result only names the version.
    toModelOutput: ({ output }) => ({
      type: "json",
      value: isCreated(output)
        ? { ...output, shown: "The visitor sees it in the artifact panel." }
        : { error: (output as { error?: string }).error ?? "Artifact not created." },
    }),
  });
}

/** The highest version of `artifactId` among the tool results of `messages` (0 when none). */
export function latestVersion(messages: readonly ModelMessage[], artifactId: string): number {
  let latest = 0;
  for (const message of messages) {
    if (message.role !== "tool" && message.role !== "assistant") continue;
    if (typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolName !== ARTIFACT_TOOL) continue;
      const value = part.output.type === "json" ? part.output.value : null;
      if (isCreated(value) && value.artifactId === artifactId) {
        latest = Math.max(latest, value.version);
      }
    }
  }
  return latest;
}
