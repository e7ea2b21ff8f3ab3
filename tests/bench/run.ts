/**
 * `deno task bench [name…]`: runs the benches under tests/bench/ and writes their full
 * report to build/bench/report.md (and prints it). BENCHMARKS.md is the one page of current
 * figures a reader opens; it is kept by hand from this report, each figure beside the
 * command that reruns it.
 *
 * Names pick benches by file name (`deno task bench capacity kv` runs capacity_bench.ts and
 * kv_bench.ts); with none, every bench runs. The report keeps the sections of the previous
 * one that this run did not write, so rerunning one bench leaves the others' figures.
 *
 * A bench is a file `tests/bench/<name>_bench.ts` exporting
 * `run(): Promise<string>` that returns a markdown section; the search bench
 * exports `runSearchBench` instead. The search bench runs first, the others in
 * name order. Each runs in its own `deno run --v8-flags=--expose-gc` process, so
 * heap figures can force a collection and one bench's garbage never weighs on
 * the next. A bench that fails leaves a note in its section and makes the run
 * exit with status 1, after the report is written.
 */
import { cpus, totalmem } from "node:os";
import { keptSections } from "./kept_sections.ts";

const BENCH_DIR = new URL("./", import.meta.url);
const ROOT = new URL("../../", import.meta.url);
const OUT = new URL("build/bench/report.md", ROOT);

/** Export that returns the section, per bench file; every other file uses `run`. */
const ENTRY: Record<string, string> = { "search_bench.ts": "runSearchBench" };
/** Benches that run before the rest, in this order. */
const FIRST = ["search_bench.ts"];

/** The bench files, search first, then the others by name. */
export async function benchFiles(dir: URL = BENCH_DIR): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith("_bench.ts")) names.push(e.name);
  }
  const rank = (n: string) => {
    const i = FIRST.indexOf(n);
    return i === -1 ? FIRST.length : i;
  };
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The machine the numbers come from, as a markdown list. */
export function machineSection(now: Date = new Date()): string {
  let model = cpus()[0]?.model?.trim() || "";
  try {
    const info = Deno.readTextFileSync("/proc/cpuinfo");
    model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() || model;
  } catch {
    // Not Linux: node:os already gave the model.
  }
  const gib = (totalmem() / 1024 ** 3).toFixed(1);
  return [
    `- Date: ${now.toISOString().replace(/\.\d+Z$/, "Z")}`,
    `- CPU: ${model || "unknown"}, ${navigator.hardwareConcurrency} logical cores`,
    `- Memory: ${gib} GiB`,
    `- OS: ${Deno.build.os} ${Deno.osRelease()} (${Deno.build.arch}); load average at start ${
      Deno.loadavg().map((x) => x.toFixed(2)).join(" / ")
    } (other work on the machine skews the timings)`,
    `- Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, TypeScript ${Deno.version.typescript}`,
  ].join("\n");
}

/** Runs one bench file in a child process; returns its markdown section. */
async function runBench(name: string): Promise<{ ok: boolean; section: string; ms: number }> {
  const result = await Deno.makeTempFile({ prefix: "bench-", suffix: ".md" });
  const t0 = performance.now();
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--expose-gc",
        new URL(import.meta.url).pathname,
        "--one",
        name,
        "--result",
        result,
      ],
      cwd: ROOT,
      // The bench's own progress goes to the terminal; the section comes back in the file.
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const status = await child.status;
    const ms = performance.now() - t0;
    const section = (await Deno.readTextFile(result)).trim();
    if (!status.success || !section) {
      return {
        ok: false,
        ms,
        section: `## ${name}\n\n_Failed (exit code ${status.code}); see the run's output._`,
      };
    }
    return { ok: true, ms, section };
  } finally {
    await Deno.remove(result).catch(() => {});
  }
}

/** Child mode: import one bench, run it, write its section to `resultPath`. */
async function runOne(name: string, resultPath: string): Promise<void> {
  const mod = await import(new URL(name, BENCH_DIR).href) as Record<string, unknown>;
  const entry = ENTRY[name] ?? "run";
  const fn = mod[entry];
  if (typeof fn !== "function") {
    throw new Error(
      `Bench "tests/bench/${name}" does not export \`${entry}(): Promise<string>\`: add it, or rename the file so it does not end in "_bench.ts".`,
    );
  }
  const section = await (fn as () => Promise<string>)();
  if (typeof section !== "string") {
    throw new Error(
      `Bench "tests/bench/${name}": \`${entry}()\` must resolve to a markdown string.`,
    );
  }
  await Deno.writeTextFile(resultPath, section);
}

/** The bench files `only` names (by the start of the file name), or all when it is empty. */
export function selectBenches(files: readonly string[], only: readonly string[]): string[] {
  if (only.length === 0) return [...files];
  const unknown = only.filter((n) => !files.some((f) => f.startsWith(n)));
  if (unknown.length > 0) {
    throw new Error(
      `No bench named ${unknown.map((n) => `"${n}"`).join(", ")}: pick from ${
        files.map((f) => f.replace(/_bench\.ts$/, "")).join(", ")
      }.`,
    );
  }
  return files.filter((f) => only.some((n) => f.startsWith(n)));
}

/**
 * Runs the benches and returns the report's text, and whether all passed. Sections of
 * `previous` that no bench wrote this time (benches not picked, notes added by hand) are kept
 * after the benches'.
 */
export async function runAll(
  previous = "",
  only: readonly string[] = [],
): Promise<{ text: string; ok: boolean }> {
  const machine = machineSection(new Date()); // the load average before the benches add to it
  const sections: string[] = [];
  const timings: string[] = [];
  let ok = true;
  for (const name of selectBenches(await benchFiles(), only)) {
    console.error(`Running tests/bench/${name}…`);
    const r = await runBench(name);
    ok &&= r.ok;
    sections.push(r.section);
    timings.push(`${name} ${(r.ms / 1000).toFixed(0)} s${r.ok ? "" : " (failed)"}`);
  }
  const text = [
    "# Benchmarks",
    "",
    "Written by `deno task bench` (tests/bench/run.ts); each bench ran in its own process",
    "with `--v8-flags=--expose-gc`. Numbers are from one run on the machine below.",
    "",
    machine,
    "",
    ...sections.flatMap((s) => [s, ""]),
    ...keptSections(previous, sections).flatMap((s) => [s, ""]),
    `_Run times: ${timings.join(", ")}._`,
    "",
  ].join("\n");
  return { text, ok };
}

if (import.meta.main) {
  const one = Deno.args.indexOf("--one");
  if (one !== -1) {
    const resultPath = Deno.args[Deno.args.indexOf("--result") + 1];
    await runOne(Deno.args[one + 1], resultPath);
  } else {
    const previous = await Deno.readTextFile(OUT).catch(() => "");
    const { text, ok } = await runAll(previous, Deno.args);
    await Deno.mkdir(new URL(".", OUT), { recursive: true });
    await Deno.writeTextFile(OUT, text);
    console.log(text);
    console.error(`Wrote ${OUT.pathname}`);
    if (!ok) Deno.exit(1);
  }
}
