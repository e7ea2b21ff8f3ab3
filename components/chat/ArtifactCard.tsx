import { format, type Messages } from "@/lib/i18n/mod.ts";
import { isCreated } from "@/lib/artifacts/versions.ts";

/** A `create_artifact` tool part, as the card reads it. */
export interface ArtifactPartView {
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}

/**
 * An artifact in the conversation: while it is written, its title as it arrives; then
 * a button with title, kind and version that opens the panel (the message list
 * listens for clicks on `data-artifact-open`), or why it was not created.
 */
export function ArtifactCard({ part, t }: { part: ArtifactPartView; t: Messages }) {
  const output = part.state === "output-available" ? part.output : undefined;
  if (isCreated(output)) {
    const kind = output.kind.toUpperCase();
    return (
      <div class="artifact-card">
        <button
          type="button"
          class="artifact-open"
          data-artifact-open={output.artifactId}
          data-artifact-version={output.version}
          aria-haspopup="dialog"
          aria-label={format(t.artifactOpenLabel, { title: output.title, kind, n: output.version })}
        >
          <span class={`artifact-kind artifact-kind-${output.kind}`} aria-hidden="true">
            {kind}
          </span>
          <span class="artifact-text">
            <span class="artifact-title">{output.title}</span>
            <span class="artifact-meta">
              {kind} · {format(t.artifactVersion, { n: output.version })}
            </span>
          </span>
          <span class="artifact-action" aria-hidden="true">{t.artifactOpen}</span>
        </button>
      </div>
    );
  }
  const refused = output && typeof (output as { error?: unknown }).error === "string"
    ? (output as { error: string }).error
    : part.state === "output-error"
    ? part.errorText ?? ""
    : null;
  if (refused !== null) {
    return (
      <div class="tool-card tool-card-error">
        <span>{t.artifactFailed}</span>
        <pre class="tool-error"><code>{refused}</code></pre>
      </div>
    );
  }
  const title = (part.input as { title?: unknown } | undefined)?.title;
  return (
    <div class="tool-card tool-card-busy" role="status">
      <span class="spinner" aria-hidden="true"></span>
      <span>
        {typeof title === "string" && title
          ? format(t.artifactCreatingTitled, { title })
          : t.artifactCreating}
      </span>
    </div>
  );
}
