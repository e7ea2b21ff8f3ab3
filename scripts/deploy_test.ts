import assert from "node:assert/strict";
import { resolveTarget, whoamiProblem } from "./deploy.ts";

Deno.test("deploy: org and app come from flags, then env, then deno.json", () => {
  const config = { org: "cfg-org", app: "cfg-app" };
  assert.deepEqual(resolveTarget([], {}, config), { org: "cfg-org", app: "cfg-app", prod: false });
  assert.deepEqual(
    resolveTarget(["--prod"], { DENO_DEPLOY_ORG: "env-org", DENO_DEPLOY_APP: "env-app" }, config),
    { org: "env-org", app: "env-app", prod: true },
  );
  assert.deepEqual(
    resolveTarget(["--org", "f-org", "--app=f-app"], { DENO_DEPLOY_ORG: "env-org" }, config),
    { org: "f-org", app: "f-app", prod: false },
  );
});

Deno.test("deploy: a missing org or app names every way to give it", () => {
  const none = resolveTarget([], {}, undefined);
  assert.ok("error" in none);
  assert.match(none.error, /No Deno Deploy organization: pass --org <slug>, set DENO_DEPLOY_ORG/);
  assert.match(none.error, /No Deno Deploy app: .*`deno deploy create`/);
  const noApp = resolveTarget(["--org", "o"], { DENO_DEPLOY_APP: "  " }, { app: 3 });
  assert.ok("error" in noApp);
  assert.doesNotMatch(noApp.error, /organization/);
});

Deno.test("deploy: whoami's answer becomes a clear message before anything is built", () => {
  const ok = JSON.stringify({ authenticated: true, orgs: [{ slug: "acme" }, { slug: "other" }] });
  assert.equal(whoamiProblem({ code: 0, stdout: ok, stderr: "" }, "acme"), null);
  assert.match(
    whoamiProblem({ code: 3, stdout: "", stderr: '{"error":{"code":"AUTH"}}' }, "acme")!,
    /^Not logged in to Deno Deploy\. Run `deno deploy login`.*DENO_DEPLOY_TOKEN/,
  );
  assert.match(
    whoamiProblem({ code: 0, stdout: ok, stderr: "" }, "nope")!,
    /organization "nope" is not reachable with this login \(reachable: "acme", "other"\)/,
  );
  assert.match(
    whoamiProblem({
      code: 1,
      stdout: "",
      stderr: "error: Import 'https://jsr.io/@deno/deploy/meta.json' failed.",
    }, "acme")!,
    /could not run or reach Deno Deploy \(exit 1\)[\s\S]*jsr\.io/,
  );
});

Deno.test("deploy: `deno task deploy` with no org stops before building or going online", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "deploy"],
    cwd: new URL("../", import.meta.url),
    clearEnv: true,
    env: {
      HOME: Deno.env.get("HOME") ?? "/tmp",
      PATH: Deno.env.get("PATH") ?? "",
      NO_COLOR: "1",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
    },
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 1);
  assert.match(stderr, /No Deno Deploy organization/);
  assert.doesNotMatch(new TextDecoder().decode(out.stdout), /Building/);
});
