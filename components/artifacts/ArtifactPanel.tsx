import { useEffect, useState } from "preact/hooks";
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";
import { format } from "@/lib/i18n/mod.ts";
import { type ArtifactMessages, artifactMessages } from "@/lib/i18n/artifact.ts";
import { ArtifactTabs, useTabs } from "./ArtifactTabs.tsx";
import { ArtifactBody, useDiffChoice } from "./ArtifactBody.tsx";
import { downloadArtifact } from "./artifact_file.ts";
import type { ArtifactPanelProps } from "@/lib/client/artifact_slot.ts";

/**
 * The artifact beside the conversation (full screen on narrow screens): Preview, Code
 * and Diff tabs, a version picker, copy and download. Escape closes it; the message
 * list then puts focus back on the card that opened it.
 */
export function ArtifactPanel(props: ArtifactPanelProps) {
  const { versions, onClose } = props;
  const t = artifactMessages(props.locale);
  const [selected, setSelected] = useState(props.initialVersion);
  const diff = useDiffChoice(props.initialVersion);
  const current = versions.find((v) => v.version === selected) ?? versions.at(-1)!;
  const id = `artifact-${current.artifactId}`;
  const tabs = useTabs(id);

  useEffect(() => setSelected(props.initialVersion), [props.initialVersion]);

  const options = versionOptions(versions, t);
  return (
    <section
      class="artifact-panel"
      role="dialog"
      aria-labelledby={`${id}-title`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <ArtifactHead id={id} t={t} current={current} onClose={onClose} />
      <div class="artifact-bar">
        <ArtifactTabs id={id} t={t} tabs={tabs} />
        <div class="artifact-actions">
          {tabs.tab !== "diff" && (
            <label class="artifact-select">
              <span>{t.version}</span>
              <select
                class="artifact-version"
                value={selected}
                onChange={(e) => setSelected(Number(e.currentTarget.value))}
              >
                {options}
              </select>
            </label>
          )}
          <CopyButton t={t} content={current.content} />
          <button
            type="button"
            class="button-quiet artifact-download"
            onClick={() => downloadArtifact(current)}
          >
            {t.download}
          </button>
        </div>
      </div>
      <ArtifactBody
        id={id}
        t={t}
        tab={tabs.tab}
        versions={versions}
        current={current}
        options={options}
        diff={diff}
        artifactOrigin={props.artifactOrigin}
        nonce={props.nonce}
      />
    </section>
  );
}

/** The options of a version picker, newest marked as the latest. */
function versionOptions(versions: ArtifactVersion[], t: ArtifactMessages) {
  const latest = versions.at(-1)!.version;
  return versions.map((v) => (
    <option key={v.version} value={v.version}>
      {format(t.versionN, { n: v.version })}
      {v.version === latest ? ` ${t.latest}` : ""}
    </option>
  ));
}

/** The panel's heading (kind and title) and its close button. */
function ArtifactHead(
  { id, t, current, onClose }: {
    id: string;
    t: ArtifactMessages;
    current: ArtifactVersion;
    onClose: () => void;
  },
) {
  return (
    <header class="artifact-head">
      <h2 id={`${id}-title`} class="artifact-heading">
        <span class={`artifact-kind artifact-kind-${current.kind}`}>
          {current.kind.toUpperCase()}
        </span>
        <span class="artifact-heading-text">{current.title}</span>
      </h2>
      <button
        type="button"
        class="icon-button artifact-close"
        aria-label={t.close}
        title={t.close}
        onClick={onClose}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            d="M6 6l12 12M18 6 6 18"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
          />
        </svg>
      </button>
    </header>
  );
}

/** Copies `content`; says "copied" for 1.5 s. */
function CopyButton({ t, content }: { t: ArtifactMessages; content: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(content).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button type="button" class="button-quiet artifact-copy" onClick={copy}>
      {copied ? t.copied : t.copy}
    </button>
  );
}
