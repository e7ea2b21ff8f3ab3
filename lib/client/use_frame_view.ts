/** A signal that follows another at most once an animation frame. */
import { useEffect, useRef } from "preact/hooks";
import { type ReadonlySignal, type Signal, useSignal, useSignalEffect } from "@preact/signals";

/**
 * The SDK updates the streaming message per chunk; the list renders at most once a frame.
 * One frame is scheduled at a time and never pushed back, so a fast stream still paints
 * every frame instead of waiting for a pause.
 */
export function useFrameView<T>(source: ReadonlySignal<T>): Signal<T> {
  const view = useSignal(source.peek());
  const frame = useRef(0);
  useSignalEffect(() => {
    const next = source.value;
    if (typeof requestAnimationFrame !== "function") {
      view.value = next;
      return;
    }
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      view.value = source.peek();
    });
  });
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return view;
}
