/**
 * Markdown sources (.md, .mdx) are taken as they are: the bytes become the
 * document unchanged; only the front matter (YAML, js-yaml) is read for the
 * title, language, URL, license and whether to skip (draft, noindex).
 */
import { load as loadYaml } from "js-yaml";

/** What the front matter and the first heading say about a markdown file. */
export interface MarkdownMeta {
  title: string;
  lang: string;
  url: string | null;
  license: string;
  /** Why the file should not be imported (draft, noindex), or null. */
  skip: string | null;
}

/** Reads the front matter of `text`; throws with a clear sentence when the YAML is invalid. */
export function readMarkdownMeta(text: string): MarkdownMeta {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  let front: Record<string, unknown> = {};
  if (m) {
    let parsed: unknown;
    try {
      parsed = loadYaml(m[1]);
    } catch (error) {
      throw new Error(`invalid front matter (${(error as Error).message.split("\n")[0]})`);
    }
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      front = parsed as Record<string, unknown>;
    }
  }
  const str = (...keys: string[]) => {
    for (const k of keys) {
      const v = front[k];
      if (typeof v === "string" && v.trim()) return v.trim();
    }
    return "";
  };
  const body = m ? text.slice(m[0].length) : text;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(body)?.[1] ?? "";
  const robots = `${str("robots")} ${front.noindex === true ? "noindex" : ""}`;
  return {
    title: str("title") || heading,
    lang: str("lang", "language", "locale"),
    url: str("canonical", "canonical_url", "canonicalURL", "url", "permalink") || null,
    license: str("license", "licence"),
    skip: front.draft === true
      ? "draft (front matter says draft: true)"
      : /noindex/i.test(robots)
      ? "noindex (front matter)"
      : null,
  };
}
