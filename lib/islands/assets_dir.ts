/**
 * Where the generated browser files (island bundles under `_islands/`, the widget's scripts)
 * are written by the build and served from: `ASSETS_DIR`, default `static/`. `deno task test`
 * builds into `.test-build/`, so a test run never replaces or prunes the bundles a running
 * `deno task dev` serves.
 */

/** The assets folder for `value` (a path relative to `root`, or absolute); `static/` by default. */
export function assetsDir(root: URL, value: string | undefined = Deno.env.get("ASSETS_DIR")): URL {
  const path = value?.trim();
  if (!path) return new URL("static/", root);
  const dir = path.endsWith("/") ? path : path + "/";
  return dir.startsWith("/") ? new URL(`file://${dir}`) : new URL(dir, root);
}
