import { useEffect, useState } from "preact/hooks";
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";
import type { DiffLine } from "@/lib/artifacts/line_diff.ts";
import { format } from "@/lib/i18n/mod.ts";
import type { ArtifactMessages } from "@/lib/i18n/artifact.ts";

type LineDiffModule = typeof import("@/lib/artifacts/line_diff.ts");

/** Props of {@linkcode ArtifactDiff}. */
export interface ArtifactDiffProps {
  versions: ArtifactVersion[];
  from: number;
  to: number;
  mode: "unified" | "split";
  t: ArtifactMessages;
}

/** The line diff between two versions; the diff code loads the first time it is shown. */
export function ArtifactDiff({ versions, from, to, mode, t }: ArtifactDiffProps) {
  const [lib, setLib] = useState<LineDiffModule | null>(null);
  useEffect(() => {
    void import("@/lib/artifacts/line_diff.ts").then(setLib);
  }, []);
  if (!lib) return <p class="artifact-note" role="status">{t.diffLoading}</p>;
  const older = versions.find((v) => v.version === from)?.content ?? "";
  const newer = versions.find((v) => v.version === to)?.content ?? "";
  const lines = lib.lineDiff(older, newer);
  const stats = lib.diffStats(lines);
  if (stats.added === 0 && stats.removed === 0) {
    return <p class="artifact-note">{t.noChanges}</p>;
  }
  return (
    <div class="artifact-diff-wrap">
      <p class="artifact-note diff-stats">{format(t.diffStats, stats)}</p>
      {mode === "unified"
        ? <Unified lines={lines} t={t} />
        : <Split rows={lib.sideBySide(lines)} t={t} />}
    </div>
  );
}

const SIGN = { same: " ", add: "+", del: "−" } as const;

function Unified({ lines, t }: { lines: DiffLine[]; t: ArtifactMessages }) {
  return (
    <table class="diff diff-unified">
      <thead class="visually-hidden">
        <tr>
          <th scope="col">{t.oldLine}</th>
          <th scope="col">{t.newLine}</th>
          <th scope="col">±</th>
          <th scope="col">{t.code}</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l, i) => (
          <tr key={i} class={`diff-${l.kind}`}>
            <td class="diff-no">{l.oldNo ?? ""}</td>
            <td class="diff-no">{l.newNo ?? ""}</td>
            <td class="diff-sign">{SIGN[l.kind]}</td>
            <td class="diff-text">{l.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Split(
  { rows, t }: { rows: ReturnType<LineDiffModule["sideBySide"]>; t: ArtifactMessages },
) {
  return (
    <table class="diff diff-split">
      <thead class="visually-hidden">
        <tr>
          <th scope="col">{t.oldLine}</th>
          <th scope="col">{t.from}</th>
          <th scope="col">{t.newLine}</th>
          <th scope="col">{t.to}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            <td class={`diff-no diff-${r.left?.kind ?? "none"}`}>{r.left?.no ?? ""}</td>
            <td class={`diff-text diff-${r.left?.kind ?? "none"}`}>{r.left?.text ?? ""}</td>
            <td class={`diff-no diff-${r.right?.kind ?? "none"}`}>{r.right?.no ?? ""}</td>
            <td class={`diff-text diff-${r.right?.kind ?? "none"}`}>{r.right?.text ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
