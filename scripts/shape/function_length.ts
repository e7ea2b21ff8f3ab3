/** The functions longer than {@linkcode FUNCTION_LINE_LIMIT} lines under some folders, read by `deno lint` with our plugin. */
import { FUNCTION_LINE_LIMIT } from "./function_length_plugin.ts";

export { FUNCTION_LINE_LIMIT };

/** One function over the limit. */
export interface LongFunction {
  /** Relative to the project root. */
  file: string;
  name: string;
  /** The declaration's first line, 1-based. */
  line: number;
  length: number;
  /** The text of its `// long-function: <reason>` marker, or null when it has none. */
  reason: string | null;
}

/** Runs `deno lint --json` with only the function-length plugin over `paths` (relative to root). */
export async function findLongFunctions(root: string, paths: string[]): Promise<LongFunction[]> {
  const dir = await Deno.makeTempDir({ prefix: "function_length_" });
  try {
    const plugin = new URL("./function_length_plugin.ts", import.meta.url).href;
    const config = `${dir}/deno.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({ lint: { plugins: [plugin], rules: { tags: [] } } }),
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["lint", "--config", config, "--json", ...paths],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    if (!text.trim().startsWith("{")) {
      throw new Error(`"deno lint" failed: ${new TextDecoder().decode(output.stderr).trim()}`);
    }
    const result = JSON.parse(text) as {
      diagnostics: Array<{ filename: string; code: string; message: string }>;
      errors: Array<{ file_path: string; message: string }>;
    };
    if (result.errors.length > 0) {
      const first = result.errors[0];
      throw new Error(`"deno lint" could not parse "${first.file_path}": ${first.message}`);
    }
    const rootUrl = new URL(`file://${await Deno.realPath(root)}/`).href;
    return result.diagnostics
      .filter((diagnostic) => diagnostic.code === "shape/function-length")
      .map((diagnostic) => ({
        file: decodeURIComponent(diagnostic.filename.replace(rootUrl, "")),
        ...(JSON.parse(diagnostic.message) as Omit<LongFunction, "file">),
      }))
      .sort((a, b) => b.length - a.length || a.file.localeCompare(b.file) || a.line - b.line);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
