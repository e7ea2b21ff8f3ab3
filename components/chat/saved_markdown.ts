/**
 * The markdown renderer (with math) of saved chats on the server, per language, loaded on
 * the first /c/:id that has messages rather than with every page: markdown-it and temml
 * are a good part of a cold start (docs/cold-start.md). The imports are plain `import()`s:
 * deno.json's `"unstable": ["lazy-dynamic-imports"]` makes Deno load them when they run.
 */
import type { Locale } from "@/lib/i18n/mod.ts";
import { messages } from "@/lib/i18n/mod.ts";
import type { RenderMarkdown } from "@/lib/client/markdown.ts";

const renderers = new Map<Locale, Promise<RenderMarkdown>>();

/** The renderer of `locale`, built once. */
export function savedChatMarkdown(locale: Locale): Promise<RenderMarkdown> {
  let renderer = renderers.get(locale);
  if (!renderer) {
    renderer = build(locale);
    renderers.set(locale, renderer);
    renderer.catch(() => renderers.delete(locale));
  }
  return renderer;
}

async function build(locale: Locale): Promise<RenderMarkdown> {
  const [{ createMarkdown }, { renderMath }] = await Promise.all([
    import("@/lib/client/markdown.ts"),
    import("@/lib/client/math.ts"),
  ]);
  const t = messages(locale);
  return createMarkdown({ source: t.source, copyCode: t.copyCode }, { math: renderMath });
}
