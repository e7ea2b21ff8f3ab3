/**
 * Checks that stop a production start with a clear message: the secrets exist and are
 * strong, and every origin allowed to call the API is https. Production means Deno Deploy
 * (`DENO_DEPLOYMENT_ID` is set in every timeline, previews included) or `APP_ENV=production`
 * (self-hosting). Locally nothing is checked: dev generates its own session secret.
 */
import type { AppConfig } from "@/lib/config.ts";
import { productionReason } from "@/lib/http/production.ts";

type Env = Record<string, string | undefined>;

/** Shortest accepted secret, in characters. */
export const MIN_SECRET_LENGTH = 32;
/** Least estimated entropy of a secret, in bits (see `estimatedBits`). */
export const MIN_SECRET_BITS = 128;

const GENERATE = "generate one with `openssl rand -base64 32`";

/**
 * Estimated entropy of a string in bits: its length times the Shannon entropy of its
 * character frequencies. A random base64 string of 32 bytes scores about 200; a repeated
 * word or a long run of one character scores far below `MIN_SECRET_BITS`.
 */
export function estimatedBits(value: string): number {
  const chars = [...value];
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) {
    const p = n / chars.length;
    perChar -= p * Math.log2(p);
  }
  return perChar * chars.length;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the string is one shorter unit repeated ("abcabcabc…"). */
function isRepetition(value: string): boolean {
  return (value + value).indexOf(value, 1) < value.length;
}

/** The problem with one secret variable, or null when it is present and strong. */
export function secretProblem(name: string, value: string | undefined): string | null {
  if (!value?.trim()) return `${name} is not set: ${GENERATE} and set it in the environment.`;
  const length = [...value].length;
  if (length < MIN_SECRET_LENGTH) {
    return `${name} has ${length} characters; it needs at least ${MIN_SECRET_LENGTH}: ${GENERATE}.`;
  }
  // A UUID holds 122 random bits: below the bar, and refused always rather than by chance.
  if (UUID.test(value)) return `${name} is a UUID (122 random bits); ${GENERATE}.`;
  const bits = estimatedBits(value);
  if (isRepetition(value) || bits < MIN_SECRET_BITS) {
    return `${name} looks guessable (about ${
      Math.floor(bits)
    } bits, repeated or too few distinct characters; at least ${MIN_SECRET_BITS} needed): ${GENERATE}.`;
  }
  return null;
}

/** The problem with one entry of `allowedOrigins`, or null when it is an https origin. */
export function originProblem(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `fresh.config.ts: allowedOrigins entry "${origin}" is not a URL; write it as "https://example.com".`;
  }
  if (url.protocol !== "https:") {
    return `fresh.config.ts: allowedOrigins entry "${origin}" is not https; in production only https origins may call the API.`;
  }
  if (url.origin !== origin) {
    return `fresh.config.ts: allowedOrigins entry "${origin}" is not a bare origin; write "${url.origin}".`;
  }
  return null;
}

/** Every problem of a production start (empty when it may start, or when not in production). */
export function startupProblems(env: Env, config: Pick<AppConfig, "allowedOrigins">): string[] {
  if (!productionReason(env)) return [];
  const problems = [
    secretProblem("SESSION_SECRET", env.SESSION_SECRET),
    secretProblem("ADMIN_TOKEN", env.ADMIN_TOKEN),
    ...config.allowedOrigins.map(originProblem),
  ].filter((p): p is string => p !== null);
  if (env.SESSION_SECRET && env.SESSION_SECRET === env.ADMIN_TOKEN) {
    problems.push("SESSION_SECRET and ADMIN_TOKEN are the same value: give each its own secret.");
  }
  return problems;
}

/** The message printed when a production start is refused. */
export function refusalMessage(env: Env, problems: string[]): string {
  return [
    `Refusing to start in production (${productionReason(env)}):`,
    ...problems.map((p) => `  - ${p}`),
    "Fix these in the deployment's environment variables or fresh.config.ts, then start again.",
  ].join("\n");
}

/**
 * Runs the checks and, when any fails, prints why and exits with status 1 before the
 * server opens anything. Called once by main.ts.
 */
export function enforceStartupChecks(
  env: Env,
  config: Pick<AppConfig, "allowedOrigins">,
): void {
  const problems = startupProblems(env, config);
  if (problems.length === 0) return;
  console.error(refusalMessage(env, problems));
  Deno.exit(1);
}
