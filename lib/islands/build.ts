/**
 * Builds the island bundles with `deno bundle --platform browser
 * --code-splitting --minify` into `_islands/` of the assets folder (static/ unless
 * ASSETS_DIR says otherwise, lib/islands/assets_dir.ts), names every entry by its
 * content hash and writes manifest.json (read by the server at start).
 *
 * The project's deno.json compiles JSX with "precompile" (fast server
 * rendering), whose templates only preact-render-to-string understands; the
 * browser build therefore uses a derived config with the automatic runtime.
 */
import type { IslandAssets } from "@/lib/http/types.ts";
import { islandEntries } from "@/lib/http/manifest_gen.ts";
import { assetsDir } from "./assets_dir.ts";

const BOOT_ENTRY = "lib/islands/client/boot.ts";
/** A flattened import between bundle files: "./name-HASH.js". */
const LOCAL_REF = /"\.\/([\w.-]+-[A-Za-z0-9]{8}\.js)"/g;

async function sha256Hex(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return [...d.slice(0, 6)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Builds the bundles and returns what the server needs to link them. */
export async function buildIslands(
  root: URL,
  { minify = true, outDir = new URL("_islands/", assetsDir(root)) }: {
    minify?: boolean;
    outDir?: URL;
  } = {},
): Promise<IslandAssets> {
  const entries = await islandEntries(root);
  const tmpDir = new URL(`.tmp-${crypto.randomUUID()}/`, outDir);
  // A unique name: two builds (a test and dev) may run at once.
  const configPath = new URL(`.deno.client.${crypto.randomUUID().slice(0, 8)}.json`, root);
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  config.compilerOptions = { ...config.compilerOptions, jsx: "react-jsx" };
  delete config.tasks;
  await Deno.writeTextFile(configPath, JSON.stringify(config));
  try {
    const args = [
      "bundle",
      "--config",
      configPath.pathname,
      "--platform",
      "browser",
      "--code-splitting",
      ...(minify ? ["--minify"] : []),
      "--outdir",
      tmpDir.pathname,
      BOOT_ENTRY,
      ...Object.values(entries),
    ];
    const out = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`Island bundling failed:\n${new TextDecoder().decode(out.stderr)}`);
    }
    const assets: IslandAssets = { boot: "", islands: {}, preload: {} };
    // Shared and lazy chunks (esbuild names them name-HASH.js) may land in subfolders
    // mirroring the sources; everything is flattened into outDir and imports rewritten.
    const chunkRef = /(["'])(?:\.\.?\/)+(?:[\w.-]+\/)*([\w.-]+-[A-Z0-9]{8}\.js)\1/g;
    const entryOutputs = new Set(
      [BOOT_ENTRY, ...Object.values(entries)].map((p) => p.replace(/\.tsx?$/, ".js")),
    );
    const place = async (
      source: string,
      name: string | null,
    ): Promise<{ file: string; chunks: string[] }> => {
      let text = await Deno.readTextFile(new URL(source, tmpDir));
      const chunks = [...new Set([...text.matchAll(chunkRef)].map((m) => m[2]))];
      text = text.replace(chunkRef, `"./$2"`);
      const bytes = new TextEncoder().encode(text);
      const file = name ? `${name}-${await sha256Hex(bytes)}.js` : source.split("/").pop()!;
      await Deno.writeFile(new URL(file, outDir), bytes);
      return { file, chunks };
    };
    await Deno.mkdir(outDir, { recursive: true });
    const boot = await place(BOOT_ENTRY.replace(/\.ts$/, ".js"), "boot");
    assets.boot = boot.file;
    for (const [name, path] of Object.entries(entries)) {
      const placed = await place(path.replace(/\.tsx?$/, ".js"), name);
      assets.islands[name] = placed.file;
      // Only static imports are preloaded; lazy chunks load when asked for.
      assets.preload[name] = placed.chunks.filter((c) => c.startsWith("chunk-"));
    }
    for (const rel of await listJs(tmpDir)) {
      if (!entryOutputs.has(rel)) await place(rel, null);
    }
    await Deno.writeTextFile(
      new URL("manifest.json", outDir),
      JSON.stringify(assets, null, 2) + "\n",
    );
    await pruneOld(outDir, assets);
    return assets;
  } finally {
    await Deno.remove(configPath).catch(() => {});
    await Deno.remove(tmpDir, { recursive: true }).catch(() => {});
  }
}

async function listJs(dir: URL, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) {
      out.push(...await listJs(new URL(entry.name + "/", dir), prefix + entry.name + "/"));
    } else if (entry.name.endsWith(".js")) out.push(prefix + entry.name);
  }
  return out;
}

/** Removes bundles no longer referenced, keeping the folder from growing with every rebuild. */
async function pruneOld(outDir: URL, assets: IslandAssets): Promise<void> {
  const keep = new Set<string>(["manifest.json", assets.boot, ...Object.values(assets.islands)]);
  for (const file of [assets.boot, ...Object.values(assets.islands)]) {
    const text = await Deno.readTextFile(new URL(file, outDir));
    for (const m of text.matchAll(LOCAL_REF)) keep.add(m[1]);
  }
  // Chunks import other chunks.
  let grew = true;
  while (grew) {
    grew = false;
    for (const file of [...keep]) {
      if (!file.endsWith(".js")) continue;
      const text = await Deno.readTextFile(new URL(file, outDir)).catch(() => "");
      for (const m of text.matchAll(LOCAL_REF)) {
        if (!keep.has(m[1])) {
          keep.add(m[1]);
          grew = true;
        }
      }
    }
  }
  for (const entry of Deno.readDirSync(outDir)) {
    if (entry.isFile && !keep.has(entry.name)) await Deno.remove(new URL(entry.name, outDir));
  }
}

/**
 * Reads `_islands/manifest.json` of the assets folder (default: ASSETS_DIR, else static/), or
 * null when the bundles were never built.
 */
export async function readIslandAssets(
  root: URL,
  dir: URL = assetsDir(root),
): Promise<IslandAssets | null> {
  try {
    return JSON.parse(await Deno.readTextFile(new URL("_islands/manifest.json", dir)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
