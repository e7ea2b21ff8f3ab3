import { useEffect, useRef, useState } from "preact/hooks";
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";
import { format, type Locale } from "@/lib/i18n/mod.ts";
import { artifactMessages } from "@/lib/i18n/artifact.ts";
import { ArtifactPreview } from "./ArtifactPreview.tsx";
import { ArtifactDiff } from "./ArtifactDiff.tsx";

/** Props of the panel; it loads only when an artifact is opened (see lib/client/artifact_slot.ts). */
export interface ArtifactPanelProps {
  locale: Locale;
  /** Every version of the artifact, oldest first (grows while an answer streams). */
  versions: ArtifactVersion[];
  /** The version whose card was opened. */
  initialVersion: number;
  artifactOrigin: string | null;
  nonce: string | null;
  onClose: () => void;
}

type Tab = "preview" | "code" | "diff";
const TABS: Tab[] = ["preview", "code", "diff"];

/**
 * The artifact beside the conversation (full screen on narrow screens): Preview, Code
 * and Diff tabs, a version picker, copy and download. Escape closes it; the message
 * list then puts focus back on the card that opened it.
 */
export function ArtifactPanel(props: ArtifactPanelProps) {
  const { versions, onClose } = props;
  const t = artifactMessages(props.locale);
  const [tab, setTab] = useState<Tab>("preview");
  const [selected, setSelected] = useState(props.initialVersion);
  const latest = versions.at(-1)!.version;
  const [from, setFrom] = useState(Math.max(1, props.initialVersion - 1));
  const [to, setTo] = useState(props.initialVersion);
  const [mode, setMode] = useState<"unified" | "split">("unified");
  const [copied, setCopied] = useState(false);
  const tabs = useRef<HTMLDivElement>(null);
  const current = versions.find((v) => v.version === selected) ?? versions.at(-1)!;
  const id = `artifact-${current.artifactId}`;

  useEffect(() => setSelected(props.initialVersion), [props.initialVersion]);
  // Focus lands on the selected tab when the panel opens.
  useEffect(() => {
    tabs.current?.querySelector<HTMLElement>("[aria-selected=true]")?.focus();
  }, []);

  function pick(next: Tab, focus = false) {
    setTab(next);
    if (focus) tabs.current?.querySelector<HTMLElement>(`#${id}-tab-${next}`)?.focus();
  }

  function onTabKey(e: KeyboardEvent) {
    const i = TABS.indexOf(tab);
    const to = e.key === "ArrowRight"
      ? TABS[(i + 1) % TABS.length]
      : e.key === "ArrowLeft"
      ? TABS[(i + TABS.length - 1) % TABS.length]
      : e.key === "Home"
      ? TABS[0]
      : e.key === "End"
      ? TABS.at(-1)!
      : null;
    if (!to) return;
    e.preventDefault();
    pick(to, true);
  }

  async function copy() {
    await navigator.clipboard.writeText(current.content).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }

  function download() {
    const type = current.kind === "svg" ? "image/svg+xml" : "text/html";
    const url = URL.createObjectURL(new Blob([current.content], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${fileName(current.title)}-v${current.version}.${current.kind}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  const versionOptions = versions.map((v) => (
    <option key={v.version} value={v.version}>
      {format(t.versionN, { n: v.version })}
      {v.version === latest ? ` ${t.latest}` : ""}
    </option>
  ));

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
      <div class="artifact-bar">
        <div
          class="artifact-tabs"
          role="tablist"
          aria-label={t.tabs}
          ref={tabs}
          onKeyDown={onTabKey}
        >
          {TABS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`${id}-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`${id}-panel`}
              tabIndex={tab === name ? 0 : -1}
              class="artifact-tab"
              onClick={() => pick(name)}
            >
              {t[name]}
            </button>
          ))}
        </div>
        <div class="artifact-actions">
          {tab !== "diff" && (
            <label class="artifact-select">
              <span>{t.version}</span>
              <select
                class="artifact-version"
                value={selected}
                onChange={(e) => setSelected(Number(e.currentTarget.value))}
              >
                {versionOptions}
              </select>
            </label>
          )}
          <button type="button" class="button-quiet artifact-copy" onClick={copy}>
            {copied ? t.copied : t.copy}
          </button>
          <button type="button" class="button-quiet artifact-download" onClick={download}>
            {t.download}
          </button>
        </div>
      </div>
      <div
        class={`artifact-body artifact-body-${tab}`}
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${tab}`}
      >
        {tab === "preview" && (
          <>
            <ArtifactPreview
              version={current}
              label={format(t.previewTitle, { title: current.title })}
              artifactOrigin={props.artifactOrigin}
              nonce={props.nonce}
            />
            <p class="artifact-note">{t.isolated}</p>
          </>
        )}
        {tab === "code" && (
          <pre class="artifact-code" tabIndex={0}><code>{current.content}</code></pre>
        )}
        {tab === "diff" && (
          <>
            {versions.length < 2 ? <p class="artifact-note">{t.oneVersion}</p> : (
              <>
                <div class="artifact-diff-controls">
                  <label class="artifact-select">
                    <span>{t.from}</span>
                    <select
                      class="artifact-diff-from"
                      value={from}
                      onChange={(e) => setFrom(Number(e.currentTarget.value))}
                    >
                      {versionOptions}
                    </select>
                  </label>
                  <label class="artifact-select">
                    <span>{t.to}</span>
                    <select
                      class="artifact-diff-to"
                      value={to}
                      onChange={(e) => setTo(Number(e.currentTarget.value))}
                    >
                      {versionOptions}
                    </select>
                  </label>
                  <div class="segmented" role="group" aria-label={t.diffMode}>
                    {(["unified", "split"] as const).map((m) => (
                      <button
                        key={m}
                        type="button"
                        class={`segment artifact-mode-${m}`}
                        aria-pressed={mode === m}
                        onClick={() => setMode(m)}
                      >
                        {t[m]}
                      </button>
                    ))}
                  </div>
                </div>
                <ArtifactDiff versions={versions} from={from} to={to} mode={mode} t={t} />
              </>
            )}
          </>
        )}
      </div>
    </section>
  );
}

/** A download file name from a title: letters, digits and dashes. */
function fileName(title: string): string {
  const slug = title.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return slug || "artifact";
}
