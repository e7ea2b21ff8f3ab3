/** Clicks inside the thread that markdown and cards cannot handle themselves (plain HTML). */

/**
 * A click handler for the thread: an artifact card (`data-artifact-open`) opens its
 * artifact; a code block's copy button (`data-copy-code`) copies the code and says so
 * (`copiedLabel`) for 1.5 s.
 */
export function threadClickHandler(
  openArtifact: (card: HTMLElement) => void,
  copiedLabel: string,
): (e: MouseEvent) => void {
  return (e) => {
    const artifact = (e.target as HTMLElement).closest<HTMLElement>("[data-artifact-open]");
    if (artifact) return openArtifact(artifact);
    const button = (e.target as HTMLElement).closest<HTMLButtonElement>("[data-copy-code]");
    if (!button) return;
    const code = button.closest(".code-block")?.querySelector("code")?.textContent ?? "";
    void navigator.clipboard.writeText(code).then(() => {
      const label = button.textContent;
      button.textContent = copiedLabel;
      setTimeout(() => (button.textContent = label), 1500);
    });
  };
}
