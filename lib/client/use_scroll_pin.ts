/** Keeps the newest message in view unless the visitor scrolled up. */
import type { RefObject } from "preact";
import { type ReadonlySignal, type Signal, useSignal, useSignalEffect } from "@preact/signals";

/**
 * Whether the list follows new content (true while it is scrolled to, or near, the bottom),
 * the scroller's `onScroll`, and a jump to the newest message (smooth, following again).
 * A tuple, like `useState`'s: the island names the parts (shorter first-visit bundle).
 */
export type ScrollPin = [pinned: Signal<boolean>, onScroll: () => void, jumpToLatest: () => void];

/** Scrolls `scroller` to its bottom whenever `view` changes while pinned. */
export function useScrollPin(
  scroller: RefObject<HTMLElement | null>,
  view: ReadonlySignal<unknown>,
): ScrollPin {
  const pinned = useSignal(true);

  useSignalEffect(() => {
    void view.value;
    const el = scroller.current;
    if (el && pinned.peek()) requestAnimationFrame(() => el.scrollTo({ top: el.scrollHeight }));
  });

  function onScroll() {
    const el = scroller.current;
    if (el) pinned.value = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  }

  function jumpToLatest() {
    pinned.value = true;
    scroller.current?.scrollTo({ top: scroller.current.scrollHeight, behavior: "smooth" });
  }

  return [pinned, onScroll, jumpToLatest];
}
