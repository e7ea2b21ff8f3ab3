/**
 * Why the start counts as production, or null when it does not: the visitor cookie and the
 * start checks (lib/startup_checks.ts) both ask.
 */
export function productionReason(env: Record<string, string | undefined>): string | null {
  if (env.DENO_DEPLOYMENT_ID) return "DENO_DEPLOYMENT_ID is set (Deno Deploy)";
  if (env.APP_ENV?.trim().toLowerCase() === "production") return "APP_ENV=production";
  return null;
}
