import type { Messages } from "@/lib/i18n/mod.ts";

/** The bottom line: how the assistant works. */
export function Footer({ t, howUrl }: { t: Messages; howUrl: string }) {
  return (
    <footer class="footer">
      <a href={howUrl}>{t.footerHow}</a>
    </footer>
  );
}
