import { useEffect, useRef, useState } from "preact/hooks";
import type { ArtifactMessages } from "@/lib/i18n/artifact.ts";

/** A tab of the artifact panel. */
export type Tab = "preview" | "code" | "diff";
const TABS: Tab[] = ["preview", "code", "diff"];

/**
 * The panel's tab state: the tab shown, `pick(tab, focus)`, and the tablist's ref (focus
 * moves to the tab, `#<id>-tab-<name>`, when picked with the keyboard).
 */
export function useTabs(id: string) {
  const [tab, setTab] = useState<Tab>("preview");
  const list = useRef<HTMLDivElement>(null);
  // Focus lands on the selected tab when the panel opens.
  useEffect(() => {
    list.current?.querySelector<HTMLElement>("[aria-selected=true]")?.focus();
  }, []);
  function pick(next: Tab, focus = false) {
    setTab(next);
    if (focus) list.current?.querySelector<HTMLElement>(`#${id}-tab-${next}`)?.focus();
  }
  return { tab, pick, list };
}

/** The tab after `tab` for an arrow, Home or End key; null for any other key. */
export function tabForKey(tab: Tab, key: string): Tab | null {
  const i = TABS.indexOf(tab);
  return key === "ArrowRight"
    ? TABS[(i + 1) % TABS.length]
    : key === "ArrowLeft"
    ? TABS[(i + TABS.length - 1) % TABS.length]
    : key === "Home"
    ? TABS[0]
    : key === "End"
    ? TABS.at(-1)!
    : null;
}

/** The Preview / Code / Diff tablist (arrows, Home and End move between the tabs). */
export function ArtifactTabs(
  { id, t, tabs }: { id: string; t: ArtifactMessages; tabs: ReturnType<typeof useTabs> },
) {
  const { tab, pick } = tabs;
  return (
    <div
      class="artifact-tabs"
      role="tablist"
      aria-label={t.tabs}
      ref={tabs.list}
      onKeyDown={(e) => {
        const to = tabForKey(tab, e.key);
        if (!to) return;
        e.preventDefault();
        pick(to, true);
      }}
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
  );
}
