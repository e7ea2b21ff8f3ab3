/**
 * `deno task deploy [--prod] [--org <org>] [--app <app>]`: checks that Deno Deploy can be
 * reached and who we are, runs the build (manifest, islands, search index), then deploys
 * with `deno deploy`, the Deno CLI's subcommand for today's Deno Deploy (deployctl and
 * Deploy Classic were shut down on 2026-07-20). Deno Deploy builds again on its side with
 * the `deploy` settings of deno.json; the local build catches a failure before uploading.
 *
 * Org and app come from the flags, else DENO_DEPLOY_ORG / DENO_DEPLOY_APP, else
 * deno.json `deploy.org` / `deploy.app` (the same order `deno deploy` uses). Without a
 * terminal, DENO_DEPLOY_TOKEN (an organization or personal access token) logs in.
 */
const root = new URL("../", import.meta.url);

/** Where and how to deploy. */
export interface DeployTarget {
  org: string;
  app: string;
  prod: boolean;
}

/** Reads `--name value` / `--name=value` from `args`. */
function flag(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return undefined;
}

/**
 * The org and app to deploy to, or an error naming every way to give them.
 * `deployConfig` is deno.json's `deploy` object.
 */
export function resolveTarget(
  args: string[],
  env: Record<string, string | undefined>,
  deployConfig: { org?: unknown; app?: unknown } | undefined,
): DeployTarget | { error: string } {
  const pick = (name: "org" | "app", envName: string) => {
    const value = flag(args, name) ?? env[envName] ??
      (typeof deployConfig?.[name] === "string" ? deployConfig[name] as string : undefined);
    return value?.trim() || undefined;
  };
  const org = pick("org", "DENO_DEPLOY_ORG");
  const app = pick("app", "DENO_DEPLOY_APP");
  const missing = [
    !org &&
    'No Deno Deploy organization: pass --org <slug>, set DENO_DEPLOY_ORG, or add "org" under "deploy" in deno.json. Create one at https://console.deno.com.',
    !app &&
    'No Deno Deploy app: pass --app <slug>, set DENO_DEPLOY_APP, or add "app" under "deploy" in deno.json. Create it once with `deno deploy create` (see docs/deploy.md).',
  ].filter(Boolean) as string[];
  if (missing.length) return { error: missing.join("\n") };
  return { org: org!, app: app!, prod: args.includes("--prod") };
}

/** What `deno deploy whoami --json` answered: exit code and output. */
export interface WhoamiResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The problem `deno deploy whoami` reveals before anything is built, or null when the
 * token works and reaches `org`. Exit codes are the deploy CLI's (3 = not authenticated).
 */
export function whoamiProblem(result: WhoamiResult, org: string): string | null {
  if (result.code === 3) {
    return "Not logged in to Deno Deploy. Run `deno deploy login` in a terminal, or set DENO_DEPLOY_TOKEN to an access token from https://console.deno.com (organization settings → access tokens).";
  }
  if (result.code !== 0) {
    const detail = result.stderr.trim().split("\n").slice(0, 6).join("\n");
    return `\`deno deploy\` could not run or reach Deno Deploy (exit ${result.code}). The deploy tool is fetched from JSR on first use and talks to console.deno.com: check the network.\n${detail}`;
  }
  let orgs: string[] = [];
  try {
    orgs = (JSON.parse(result.stdout).orgs ?? []).map((o: { slug: string }) => o.slug);
  } catch {
    return null; // An older CLI without JSON: let `deno deploy` itself judge the org.
  }
  if (!orgs.includes(org)) {
    return `The Deno Deploy organization "${org}" is not reachable with this login (reachable: ${
      orgs.length ? orgs.map((o) => `"${o}"`).join(", ") : "none"
    }). Fix --org / DENO_DEPLOY_ORG / deno.json "deploy.org", or log in with an account of that organization.`;
  }
  return null;
}

/** Runs `deno <args>` in the project; output is shown unless `capture`. */
async function deno(args: string[], capture = false): Promise<WhoamiResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdin: capture ? "null" : "inherit",
    stdout: capture ? "piped" : "inherit",
    stderr: capture ? "piped" : "inherit",
  }).output();
  const text = (b: Uint8Array) => capture ? new TextDecoder().decode(b) : "";
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** Stops with a message. */
function fail(message: string): never {
  console.error(message);
  Deno.exit(1);
}

if (import.meta.main) {
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
  const target = resolveTarget(Deno.args, Deno.env.toObject(), denoJson.deploy);
  if ("error" in target) fail(target.error);
  const interactive = Deno.stdin.isTerminal();
  // Without a terminal the deploy CLI cannot open the login page: it must fail fast.
  const mode = interactive ? [] : ["--non-interactive"];
  const who = await deno(["deploy", "whoami", "--json", ...mode], true);
  const problem = whoamiProblem(who, target.org);
  if (problem) fail(problem);
  console.log(`Building for ${target.org}/${target.app}…`);
  if ((await deno(["task", "build"])).code !== 0) {
    fail("`deno task build` failed: nothing deployed.");
  }
  const deployArgs = ["deploy", "--org", target.org, "--app", target.app, ...mode];
  if (target.prod) deployArgs.push("--prod");
  const deployed = await deno(deployArgs);
  if (deployed.code !== 0) fail(`\`deno ${deployArgs.join(" ")}\` failed (exit ${deployed.code}).`);
}
