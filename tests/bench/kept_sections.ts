/**
 * The bench report (build/bench/report.md) holds sections the benches of this run wrote
 * and sections from earlier runs: a run of one bench (`deno task bench capacity`), or a
 * note added by hand, must not erase the others, so a run keeps every `## ` section of the
 * old report whose heading no bench wrote this time.
 */

/** The `## ` sections of a markdown text, keyed by heading line, in order. */
export function splitSections(text: string): Array<{ heading: string; body: string }> {
  const out: Array<{ heading: string; body: string }> = [];
  let current: { heading: string; lines: string[] } | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) {
      if (current) out.push({ heading: current.heading, body: current.lines.join("\n").trim() });
      current = { heading: line.trim(), lines: [line] };
    } else if (line.startsWith("_Run times:")) {
      // The run's own footer, rewritten on every run.
      continue;
    } else if (current) {
      current.lines.push(line);
    }
  }
  if (current) out.push({ heading: current.heading, body: current.lines.join("\n").trim() });
  return out;
}

/** The sections of `oldText` whose headings none of `generated` (bench sections) has. */
export function keptSections(oldText: string, generated: readonly string[]): string[] {
  const written = new Set(generated.flatMap((s) => splitSections(s).map((x) => x.heading)));
  return splitSections(oldText).filter((s) => !written.has(s.heading)).map((s) => s.body);
}
