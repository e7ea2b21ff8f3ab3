/**
 * Where the message list finds the artifact panel without importing it: the panel
 * (and, once its Diff tab is shown, the `diff` package) loads the first time a
 * visitor opens an artifact, so the first visit's bundle never holds it.
 */
import type { ArtifactPanel as Panel } from "@/components/artifacts/ArtifactPanel.tsx";

/** The panel component's type. */
export type ArtifactPanelComponent = typeof Panel;

let panel: ArtifactPanelComponent | null = null;

/** The panel component, or null while it has not loaded. */
export function artifactPanel(): ArtifactPanelComponent | null {
  return panel;
}

/** Loads the panel's code (once) and returns the component. */
export async function loadArtifactPanel(): Promise<ArtifactPanelComponent> {
  panel ??= (await import("@/components/artifacts/ArtifactPanel.tsx")).ArtifactPanel;
  return panel;
}

/** The page's CSP nonce (a `srcdoc` preview inherits the page's policy and needs it), or null. */
export function pageNonce(): string | null {
  return document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || null;
}
