/**
 * The artifact panel's place beside the message list: which artifact is open, the panel's
 * code (loaded on the first open, see artifact_slot.ts), and focus back on the card that
 * opened it when it closes.
 */
import type { RefObject } from "preact";
import { type Signal, useSignal } from "@preact/signals";
import {
  artifactPanel,
  type ArtifactPanelComponent,
  loadArtifactPanel,
} from "@/lib/client/artifact_slot.ts";

/** The artifact shown: its id and the version whose card was opened. */
export interface OpenArtifact {
  id: string;
  version: number;
}

/**
 * The open artifact, the panel component (null while it loads), `openFrom(card)` (opens the
 * artifact a card's `data-artifact-open` and `data-artifact-version` name) and `close`.
 */
export interface ArtifactSlot {
  open: Signal<OpenArtifact | null>;
  Panel: Signal<ArtifactPanelComponent | null>;
  openFrom: (card: HTMLElement) => void;
  close: () => void;
}

/** The artifact slot of the list under `root` (where the cards are). */
export function useArtifactSlot(root: RefObject<HTMLElement | null>): ArtifactSlot {
  const open = useSignal<OpenArtifact | null>(null);
  const Panel = useSignal<ArtifactPanelComponent | null>(artifactPanel());

  function openFrom(card: HTMLElement) {
    const id = card.dataset.artifactOpen!;
    open.value = { id, version: Number(card.dataset.artifactVersion) || 1 };
    if (!Panel.value) void loadArtifactPanel().then((p) => (Panel.value = p));
  }

  function close() {
    const was = open.value;
    open.value = null;
    if (!was) return;
    // Back to the card that opened it (or the artifact's latest card, if that one is gone).
    const cards = root.current?.querySelectorAll<HTMLElement>(
      `[data-artifact-open="${CSS.escape(was.id)}"]`,
    );
    const card = [...cards ?? []].find((c) => c.dataset.artifactVersion === String(was.version)) ??
      cards?.[cards.length - 1];
    requestAnimationFrame(() => card?.focus());
  }

  return { open, Panel, openFrom, close };
}
