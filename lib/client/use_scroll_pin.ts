/** Keeps the newest message in view unless the visitor scrolled up. */
import type { RefObject } from "preact";
import { type ReadonlySignal, type Signal, useSignal, useSignalEffect } from "@preact/signals";

/** Whether the list follows new content, and the two ways the visitor changes that. */
export interface ScrollPin {
  /** True while the list is scrolled to, or near, its bottom. */
  pinned: Signal<boolean>;
  /** The scroller's `onScroll`. */
  onScroll: () => void;
  /** A smooth jump to the newest message, following again. */
  jumpToLatest: () => void;
}

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

  return { pinned, onScroll, jumpToLatest };
}
