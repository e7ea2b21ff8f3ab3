import type { ArtifactVersion } from "@/lib/artifacts/types.ts";
import type { ArtifactPanelComponent } from "@/lib/client/artifact_slot.ts";
import { pageNonce } from "@/lib/client/artifact_slot.ts";
import type { OpenArtifact } from "@/lib/client/use_artifact_slot.ts";
import type { Locale, Messages } from "@/lib/i18n/mod.ts";

/** The open artifact's panel, or a loading line while the panel's code arrives. */
export function ArtifactSlot(
  { t, locale, Panel, opened, versions, artifactOrigin, onClose }: {
    t: Messages;
    locale: Locale;
    /** The panel component; null while it loads. */
    Panel: ArtifactPanelComponent | null;
    opened: OpenArtifact;
    versions: ArtifactVersion[];
    artifactOrigin: string | null;
    onClose: () => void;
  },
) {
  if (!Panel) {
    return (
      <section class="artifact-panel artifact-panel-loading" role="status">
        <span class="spinner" aria-hidden="true"></span>
        <span>{t.artifactLoading}</span>
      </section>
    );
  }
  return (
    <Panel
      key={opened.id}
      locale={locale}
      versions={versions}
      initialVersion={opened.version}
      artifactOrigin={artifactOrigin}
      nonce={pageNonce()}
      onClose={onClose}
    />
  );
}
