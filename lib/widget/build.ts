/**
 * Builds the widget's two browser scripts with `deno bundle --platform browser --format iife`:
 * static/widget.js (the loader other sites include; no imports, no globals) and
 * static/widget_frame.js (the frame page's token fetch). Stable names: the host pages
 * reference widget.js by URL, so it is revalidated (ETag) rather than content-hashed.
 */

import { assetsDir } from "@/lib/islands/assets_dir.ts";

const ENTRIES = { "widget.js": "lib/widget/loader.ts", "widget_frame.js": "lib/widget/frame.ts" };

/**
 * Bundles the loader and the frame script into `outDir` (default: the assets folder, static/
 * unless ASSETS_DIR says otherwise); returns their paths.
 */
export async function buildWidget(
  root: URL,
  { outDir = assetsDir(root), minify = true }: { outDir?: URL; minify?: boolean } = {},
): Promise<Record<keyof typeof ENTRIES, URL>> {
  const tmp = await Deno.makeTempDir({ prefix: "widget-build-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform",
        "browser",
        "--format",
        "iife",
        ...(minify ? ["--minify"] : []),
        "--outdir",
        tmp,
        ...Object.values(ENTRIES),
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`Widget bundling failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    await Deno.mkdir(outDir, { recursive: true });
    const written = {} as Record<keyof typeof ENTRIES, URL>;
    for (const [name, entry] of Object.entries(ENTRIES) as [keyof typeof ENTRIES, string][]) {
      const built = `${tmp}/${entry.split("/").pop()!.replace(/\.ts$/, ".js")}`;
      written[name] = new URL(name, outDir);
      await Deno.writeFile(written[name], await Deno.readFile(built));
    }
    return written;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
