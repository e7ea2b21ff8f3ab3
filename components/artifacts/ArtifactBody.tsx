import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";
import { format } from "@/lib/i18n/mod.ts";
import type { ArtifactMessages } from "@/lib/i18n/artifact.ts";
import { ArtifactPreview } from "./ArtifactPreview.tsx";
import { ArtifactDiff } from "./ArtifactDiff.tsx";
import type { Tab } from "./ArtifactTabs.tsx";

/** How a diff is shown: one column, or the two versions side by side. */
export type DiffMode = "unified" | "split";

/** The two versions the Diff tab compares and how, with their setters. */
export interface DiffChoice {
  from: number;
  to: number;
  mode: DiffMode;
  setFrom: (version: number) => void;
  setTo: (version: number) => void;
  setMode: (mode: DiffMode) => void;
}

/**
 * The Diff tab's choice, kept by the panel (it survives switching tabs): the version before
 * the opened one against the opened one, unified.
 */
export function useDiffChoice(initialVersion: number): DiffChoice {
  const [from, setFrom] = useState(Math.max(1, initialVersion - 1));
  const [to, setTo] = useState(initialVersion);
  const [mode, setMode] = useState<DiffMode>("unified");
  return { from, to, mode, setFrom, setTo, setMode };
}

/** Props of {@linkcode ArtifactBody}. */
export interface ArtifactBodyProps {
  /** The element id prefix (`artifact-<artifactId>`). */
  id: string;
  t: ArtifactMessages;
  tab: Tab;
  versions: ArtifactVersion[];
  /** The version shown by Preview and Code. */
  current: ArtifactVersion;
  /** The version picker's options (see `versionOptions`). */
  options: JSX.Element[];
  diff: DiffChoice;
  artifactOrigin: string | null;
  nonce: string | null;
}

/** The tab panel: the sandboxed preview, the source, or the diff between two versions. */
export function ArtifactBody(p: ArtifactBodyProps) {
  const { t, tab, current } = p;
  return (
    <div
      class={`artifact-body artifact-body-${tab}`}
      role="tabpanel"
      id={`${p.id}-panel`}
      aria-labelledby={`${p.id}-tab-${tab}`}
    >
      {tab === "preview" && (
        <>
          <ArtifactPreview
            version={current}
            label={format(t.previewTitle, { title: current.title })}
            artifactOrigin={p.artifactOrigin}
            nonce={p.nonce}
          />
          <p class="artifact-note">{t.isolated}</p>
        </>
      )}
      {tab === "code" && (
        <pre class="artifact-code" tabIndex={0}><code>{current.content}</code></pre>
      )}
      {tab === "diff" && (
        <>
          {p.versions.length < 2
            ? <p class="artifact-note">{t.oneVersion}</p>
            : <DiffTab t={t} versions={p.versions} options={p.options} diff={p.diff} />}
        </>
      )}
    </div>
  );
}

/** The Diff tab: from / to pickers, unified or split, and the diff itself. */
function DiffTab(
  { t, versions, options, diff }: {
    t: ArtifactMessages;
    versions: ArtifactVersion[];
    options: JSX.Element[];
    diff: DiffChoice;
  },
) {
  const { from, to, mode } = diff;
  return (
    <>
      <div class="artifact-diff-controls">
        <label class="artifact-select">
          <span>{t.from}</span>
          <select
            class="artifact-diff-from"
            value={from}
            onChange={(e) => diff.setFrom(Number(e.currentTarget.value))}
          >
            {options}
          </select>
        </label>
        <label class="artifact-select">
          <span>{t.to}</span>
          <select
            class="artifact-diff-to"
            value={to}
            onChange={(e) => diff.setTo(Number(e.currentTarget.value))}
          >
            {options}
          </select>
        </label>
        <div class="segmented" role="group" aria-label={t.diffMode}>
          {(["unified", "split"] as const).map((m) => (
            <button
              key={m}
              type="button"
              class={`segment artifact-mode-${m}`}
              aria-pressed={mode === m}
              onClick={() => diff.setMode(m)}
            >
              {t[m]}
            </button>
          ))}
        </div>
      </div>
      <ArtifactDiff versions={versions} from={from} to={to} mode={mode} t={t} />
    </>
  );
}
