/**
 * Markdown in the message list, loaded on demand: the first visit to an empty chat does not
 * pay for it. Math (temml) loads with it when an answer may hold some, or once the renderer
 * meets math; code blocks are highlighted once an answer is complete.
 */
import type { RefObject } from "preact";
import { useRef } from "preact/hooks";
import { type ReadonlySignal, type Signal, useSignal, useSignalEffect } from "@preact/signals";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";
import { MATH_HINT, textOf } from "@/lib/client/chat_text.ts";
import type { ChatMessage } from "@/lib/protocol/ui_message.ts";
import type { Messages } from "@/lib/i18n/mod.ts";

/**
 * The renderer (null until loaded) and `loadRenderer(withMath)` to ask for it early (e.g. on
 * send; each module loads once).
 */
export interface Markdown {
  render: Signal<RenderMarkdown | null>;
  loadRenderer: (withMath: boolean) => void;
}

/**
 * Loads the renderer once an answer shows in `messages`; highlights the code under `root`
 * once `busy` ends and `view` (the messages as painted, use_frame_view.ts) has been drawn.
 */
export function useMarkdown(
  t: Messages,
  messages: ReadonlySignal<ChatMessage[]>,
  view: ReadonlySignal<ChatMessage[]>,
  busy: ReadonlySignal<boolean>,
  root: RefObject<HTMLElement | null>,
): Markdown {
  const render = useSignal<RenderMarkdown | null>(null);

  // Code blocks are highlighted once an answer is complete; the highlighter loads only then.
  useSignalEffect(() => {
    if (busy.value || !render.value) return;
    void view.value;
    requestAnimationFrame(() => {
      const blocks = root.current?.querySelectorAll<HTMLElement>(
        "pre code[class*='language-']:not([data-hl])",
      );
      if (blocks?.length) import("@/lib/client/highlight.ts").then((h) => h.highlightAll(blocks));
    });
  });

  const mathLoading = useRef(false);
  const rendererRequested = useRef(false);
  function loadRenderer(withMath: boolean) {
    // Asked for on send and again as messages change: load each module once.
    if (withMath ? mathLoading.current : rendererRequested.current) return;
    rendererRequested.current = true;
    if (withMath) mathLoading.current = true;
    void Promise.all([
      import("@/lib/client/markdown.ts"),
      withMath ? import("@/lib/client/math.ts") : null,
    ]).then(([m, math]) => {
      render.value = m.createMarkdown({ source: t.source, copyCode: t.copyCode }, {
        math: math?.renderMath,
        onMathWithoutRenderer: () => {
          if (!mathLoading.current) loadRenderer(true);
        },
      });
    });
  }
  useSignalEffect(() => {
    if (render.value) return;
    const answers = messages.value.filter((m) => m.role === "assistant");
    if (answers.length) loadRenderer(answers.some((m) => MATH_HINT.test(textOf(m, true))));
  });

  return { render, loadRenderer };
}
