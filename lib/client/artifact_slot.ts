/**
 * Where the message list finds the artifact panel without importing it: the panel
 * (and, once its Diff tab is shown, the `diff` package) loads the first time a
 * visitor opens an artifact, so the first visit's bundle never holds it. The message list
 * island sets the loader, so this module imports nothing above it.
 */
import type { ComponentType } from "preact";
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";
import type { Locale } from "@/lib/i18n/mod.ts";

/** Props of the panel (components/artifacts/ArtifactPanel.tsx), loaded when an artifact opens. */
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

/** The panel component's type. */
export type ArtifactPanelComponent = ComponentType<ArtifactPanelProps>;

let panel: ArtifactPanelComponent | null = null;
let loader: (() => Promise<ArtifactPanelComponent>) | null = null;

/** Sets how the panel's code loads: a dynamic import made by the island above this module. */
export function setArtifactPanelLoader(load: () => Promise<ArtifactPanelComponent>): void {
  loader = load;
}

/** The panel component, or null while it has not loaded. */
export function artifactPanel(): ArtifactPanelComponent | null {
  return panel;
}

/** Loads the panel's code (once) and returns the component. */
export async function loadArtifactPanel(): Promise<ArtifactPanelComponent> {
  if (!loader) {
    throw new Error("No artifact panel loader: islands/ChatMessages.tsx sets it when loaded.");
  }
  panel ??= await loader();
  return panel;
}

/** The page's CSP nonce (a `srcdoc` preview inherits the page's policy and needs it), or null. */
export function pageNonce(): string | null {
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || null;
}
