import assert from "node:assert/strict";
import { existsSync } from "node:fs";

const MODULE = new URL("./temp_module.ts", import.meta.url).pathname;

Deno.test("temp: a test module's folders and KV files are gone once it ends", async () => {
  const report = await Deno.makeTempFile({ prefix: "temp-report-" });
  try {
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--no-check", MODULE],
      env: { TEMP_REPORT: report },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(run.success, new TextDecoder().decode(run.stderr));
    const made: string[] = JSON.parse(await Deno.readTextFile(report));
    assert.equal(made.length, 2);
    for (const path of made) {
      assert.ok(path.length > 1, "a real path was reported");
      for (const file of [path, `${path}-shm`, `${path}-wal`]) {
        assert.ok(!existsSync(file), `${file} is left`);
      }
    }
  } finally {
    await Deno.remove(report);
  }
});
