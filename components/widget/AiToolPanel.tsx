import { useSignal } from "@preact/signals";
import type { Locale } from "@/lib/i18n/mod.ts";
import { aiToolLabels, AiToolSnippetList } from "@/components/AiToolSnippets.tsx";

/**
 * The widget's "Use with your AI tool" overlay: the footer's snippets (one list,
 * components/AiToolSnippets.tsx), each with a Copy button. The result is announced in a
 * live region; where the clipboard is refused, the snippet is selected so Ctrl+C copies it.
 */
export function AiToolPanel({ mcpUrl, locale }: { mcpUrl: string; locale: Locale }) {
  const l = aiToolLabels(locale);
  const status = useSignal<{ id: string; text: string } | null>(null);

  async function copy(code: string, preId: string) {
    const done = await copyText(code, document.getElementById(preId));
    status.value = { id: preId, text: done ? l.copied : l.copyFailed };
  }

  return (
    <div class="widget-ai-tool">
      <h2 id="widget-overlay-title" tabIndex={-1}>{l.action}</h2>
      <AiToolSnippetList
        mcpUrl={mcpUrl}
        locale={locale}
        idPrefix="widget-ai-tool"
        action={(snippet, preId) => (
          <div class="widget-copy-row">
            <button
              type="button"
              class="widget-copy"
              aria-describedby={`${preId}-client`}
              onClick={() => copy(snippet.code, preId)}
            >
              {l.copy}
            </button>
            <span class="widget-copy-status" role="status">
              {status.value?.id === preId ? status.value.text : ""}
            </span>
          </div>
        )}
      />
    </div>
  );
}

/** Puts `text` on the clipboard; without clipboard access, selects `pre` and copies that. */
async function copyText(text: string, pre: HTMLElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // A frame without clipboard permission: the selection route below.
  }
  if (!pre) return false;
  const range = document.createRange();
  range.selectNodeContents(pre);
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
