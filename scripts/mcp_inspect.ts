/**
 * The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, fetched by npx) against a
 * running server's `/mcp`: lists the tools, then calls `search_site` once.
 *
 *   deno task mcp:inspect [--url http://127.0.0.1:8000/mcp] [--query "..."]
 *
 * Start the server first (`deno task start` or `deno task dev`). With `MCP_TOKEN` in the
 * environment the token is sent as `Authorization: Bearer …`. Needs Node.js (npx) and the
 * npm registry the first time; exits with the Inspector's code.
 */
import { parseArgs } from "node:util";

/** The Inspector release this task was checked with. */
export const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    url: { type: "string", default: `http://127.0.0.1:${Deno.env.get("PORT") ?? 8000}/mcp` },
    query: { type: "string", default: "Como o assistente encontra as respostas?" },
  },
});

/** Runs the Inspector CLI with `args`; its output goes straight to ours. */
async function inspector(args: string[]): Promise<number> {
  const token = Deno.env.get("MCP_TOKEN");
  const auth = token ? ["--header", `Authorization: Bearer ${token}`] : [];
  const { code } = await new Deno.Command("npx", {
    args: ["-y", INSPECTOR, "--cli", values.url!, "--transport", "http", ...auth, ...args],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

if (import.meta.main) {
  console.log(`# tools/list on ${values.url}`);
  const listed = await inspector(["--method", "tools/list"]);
  if (listed !== 0) Deno.exit(listed);
  console.log(`# tools/call search_site query=${JSON.stringify(values.query)}`);
  Deno.exit(
    await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "search_site",
      "--tool-arg",
      `query=${values.query}`,
      "top_k=2",
    ]),
  );
}
