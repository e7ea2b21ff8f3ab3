/** An artifact version as a file: copied to the clipboard or downloaded. */
import type { ArtifactVersion } from "@/lib/artifacts/types.ts";

/** Downloads `version` as `<title>-v<n>.<kind>` (an object URL, revoked after 10 s). */
export function downloadArtifact(version: ArtifactVersion): void {
  const type = version.kind === "svg" ? "image/svg+xml" : "text/html";
  const url = URL.createObjectURL(new Blob([version.content], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `${fileName(version.title)}-v${version.version}.${version.kind}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A download file name from a title: letters, digits and dashes. */
export function fileName(title: string): string {
  const slug = title.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return slug || "artifact";
}
