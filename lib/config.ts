/**
 * The app's typed configuration, written by the site owner in fresh.config.ts.
 */
import { validateAgentConfig } from "@/lib/agents/agent_config.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { type LocalizedText, localizedTextProblem } from "@/lib/i18n/localized.ts";
import type { Locale } from "@/lib/i18n/mod.ts";
import { resolveModelDeadlines } from "@/lib/models/deadlines.ts";
import type { ModelDeadlines } from "@/lib/models/types.ts";
import { loadableConfig } from "@/lib/agents/self_agent.ts";

/** Most tokens one model call may write when the configuration says nothing. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** Bounds on the tool calls the model makes (see `AppConfig.toolCalls`). */
export interface ToolCallLimits {
  /** Most calls one model step may make; the rest of that step's calls are refused. */
  perStep: number;
  /** Most calls one turn may make over all its steps; later ones are refused. */
  perTurn: number;
  /** Most calls running at the same time; the others wait their turn. */
  concurrency: number;
}

/** Default of `toolCalls`. */
export const DEFAULT_TOOL_CALL_LIMITS: Readonly<ToolCallLimits> = Object.freeze({
  perStep: 8,
  perTurn: 24,
  concurrency: 4,
});

/** A limit per window: requests a minute and tokens a day. */
export interface RateLimit {
  requestsPerMinute: number;
  tokensPerDay: number;
}

/** Everything a site owner configures. */
export interface AppConfig {
  site: {
    /** Shown in the header and the system prompt: one string, or one per language. */
    name: LocalizedText;
    /** Who the site is about, for the system prompt. */
    owner: string;
    /** Public origin of the site, used in links; null serves relative links. */
    url: string | null;
  };
  /** Origins other than our own allowed to call /api/chat (the embeddable widget). */
  allowedOrigins: string[];
  /**
   * Most model steps in one turn (tool calls and answers). The last allowed step is called
   * without tools and told to answer, so a turn always ends with text.
   */
  maxSteps: number;
  /**
   * Deadlines of every model call, in milliseconds: to the first byte of the provider's
   * answer (`firstByteMs`), and the longest pause inside it (`idleMs`). An expired one aborts
   * the call (a gateway that does not answer in time is skipped for the direct route).
   */
  modelDeadlines: ModelDeadlines;
  /**
   * A turn whose answer nobody has listened to for this many seconds (its visitor's
   * connection closed and no tab follows it) is aborted: nobody pays for unread answers.
   * A dropped connection alone does not stop a turn. Default 30.
   */
  abandonAfterSeconds: number;
  /**
   * Most resume followers (`GET /api/chat/:id/stream`, one per open tab) one chat may have
   * at once on a server instance; the next is answered 429 with Retry-After. Default 16.
   */
  maxFollowersPerChat: number;
  /** Most tokens one model call may write (reasoning models count their reasoning too). */
  maxOutputTokens: number;
  /**
   * Bounds on the model's tool calls: a step (`perStep`) and a turn (`perTurn`) make at most
   * this many; each call over a bound is refused with a tool error the model reads (nothing
   * runs for it), and at most `concurrency` calls run at once. Default 8, 24 and 4.
   */
  toolCalls: ToolCallLimits;
  /** Chats expire after this many days without an update. */
  retentionDays: number;
  /**
   * Suggested questions on an empty chat, per language. Optional: without a list for a
   * language, they come from the site's own content (lib/corpus/suggestions.ts).
   */
  suggestions?: Partial<Record<Locale, string[]>>;
  limits: { visitor: RateLimit; ip: RateLimit };
  /** Largest accepted /api/chat body in bytes. */
  maxBodyBytes: number;
  /**
   * OpenAPI agents whose operations become tools of the chat (lib/agents/types.ts
   * `AgentConfig`). `baseUrl: "self"` means this app's own origin (lib/agents/self_agent.ts).
   * Their specs are loaded at start and checked by the build.
   */
  agents?: AgentConfig[];
  /**
   * How a turn gets the site's passages: `"prefetch"` (default) runs the site search on the
   * visitor's question before the first model call, shown as the same `search_site` tool
   * part, so the first word needs one provider round trip; `"tool"` leaves the search to the
   * model, which costs a model call more before it answers.
   */
  retrieval: Retrieval;
}

/** How a turn gets the site's passages (see `AppConfig.retrieval`). */
export type Retrieval = "prefetch" | "tool";

/** Default of `retrieval`. */
export const DEFAULT_RETRIEVAL: Retrieval = "prefetch";

/** Default of `abandonAfterSeconds`. */
export const DEFAULT_ABANDON_AFTER_SECONDS = 30;

/** Default of `maxFollowersPerChat`. */
export const DEFAULT_MAX_FOLLOWERS_PER_CHAT = 16;

/** What fresh.config.ts writes: the fields with a default may be left out. */
export type AppConfigInput =
  & Omit<
    AppConfig,
    | "modelDeadlines"
    | "maxOutputTokens"
    | "abandonAfterSeconds"
    | "maxFollowersPerChat"
    | "retrieval"
    | "toolCalls"
  >
  & {
    retrieval?: Retrieval;
    toolCalls?: Partial<ToolCallLimits>;
    modelDeadlines?: Partial<ModelDeadlines>;
    maxOutputTokens?: number;
    abandonAfterSeconds?: number;
    maxFollowersPerChat?: number;
  };

/**
 * Checks the configuration and fills in the defaults (`modelDeadlines` from
 * `DEFAULT_MODEL_DEADLINES`, `maxOutputTokens` 4096, `toolCalls` from
 * `DEFAULT_TOOL_CALL_LIMITS`); a bad value stops the start with a clear message.
 */
export function defineConfig(input: AppConfigInput): AppConfig {
  const config: AppConfig = {
    ...input,
    modelDeadlines: resolveModelDeadlines(input.modelDeadlines, "fresh.config.ts: "),
    maxOutputTokens: input.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    abandonAfterSeconds: input.abandonAfterSeconds ?? DEFAULT_ABANDON_AFTER_SECONDS,
    maxFollowersPerChat: input.maxFollowersPerChat ?? DEFAULT_MAX_FOLLOWERS_PER_CHAT,
    retrieval: input.retrieval ?? DEFAULT_RETRIEVAL,
    toolCalls: { ...DEFAULT_TOOL_CALL_LIMITS, ...input.toolCalls },
  };
  checkToolCallLimits(config.toolCalls);
  if (config.retrieval !== "prefetch" && config.retrieval !== "tool") {
    throw new Error(
      `fresh.config.ts: "retrieval" must be "prefetch" or "tool", got ${
        JSON.stringify(config.retrieval)
      }.`,
    );
  }
  const abandon = config.abandonAfterSeconds;
  if (typeof abandon !== "number" || !(abandon > 0 && abandon <= 3600)) {
    throw new Error(
      `fresh.config.ts: "abandonAfterSeconds" must be a number of seconds above 0 and at most 3600, got ${abandon}.`,
    );
  }
  const followers = config.maxFollowersPerChat;
  if (!Number.isInteger(followers) || followers < 1 || followers > 1000) {
    throw new Error(
      `fresh.config.ts: "maxFollowersPerChat" must be an integer from 1 to 1000, got ${followers}.`,
    );
  }
  const nameProblem = localizedTextProblem(config.site.name, '"site.name"');
  if (nameProblem) throw new Error(`fresh.config.ts: ${nameProblem}`);
  if (!Number.isInteger(config.maxSteps) || config.maxSteps < 1 || config.maxSteps > 50) {
    throw new Error(
      `fresh.config.ts: "maxSteps" must be an integer from 1 to 50, got ${config.maxSteps}.`,
    );
  }
  if (
    !Number.isInteger(config.maxOutputTokens) || config.maxOutputTokens < 1 ||
    config.maxOutputTokens > 1_000_000
  ) {
    throw new Error(
      `fresh.config.ts: "maxOutputTokens" must be an integer from 1 to 1000000, got ${config.maxOutputTokens}.`,
    );
  }
  if (!(config.retentionDays > 0)) {
    throw new Error(
      `fresh.config.ts: "retentionDays" must be positive, got ${config.retentionDays}.`,
    );
  }
  checkAgents(config.agents ?? []);
  for (const origin of config.allowedOrigins) {
    if (new URL(origin).origin !== origin) {
      throw new Error(
        `fresh.config.ts: allowed origin "${origin}" must be a bare origin like "https://example.com".`,
      );
    }
  }
  return config;
}

/** Checks `toolCalls`: whole numbers in range, a step's bound within the turn's. */
function checkToolCallLimits(limits: ToolCallLimits): void {
  const ranges = { perStep: 100, perTurn: 500, concurrency: 32 } as const;
  for (const [field, max] of Object.entries(ranges) as Array<[keyof ToolCallLimits, number]>) {
    const value = limits[field];
    if (!Number.isInteger(value) || value < 1 || value > max) {
      throw new Error(
        `fresh.config.ts: "toolCalls.${field}" must be an integer from 1 to ${max}, got ${value}.`,
      );
    }
  }
  if (limits.perStep > limits.perTurn) {
    throw new Error(
      `fresh.config.ts: "toolCalls.perStep" (${limits.perStep}) is above "toolCalls.perTurn" (${limits.perTurn}). Fix: raise perTurn or lower perStep.`,
    );
  }
}

/** Checks every agent's declaration (not its spec: that is loaded at build and start). */
function checkAgents(agents: readonly AgentConfig[]): void {
  if (!Array.isArray(agents)) throw new Error('fresh.config.ts: "agents" must be a list.');
  const ids = new Set<string>();
  for (const agent of agents) {
    try {
      validateAgentConfig(loadableConfig(agent));
    } catch (error) {
      throw new Error(`fresh.config.ts: ${(error as Error).message}`);
    }
    if (ids.has(agent.id)) {
      throw new Error(
        `fresh.config.ts: two agents have the id "${agent.id}". Fix: give each agent its own id.`,
      );
    }
    ids.add(agent.id);
    for (const field of ["name", "description"] as const) {
      const problem = localizedTextProblem(agent[field], `"${field}"`);
      if (problem) throw new Error(`fresh.config.ts: Agent "${agent.id}": ${problem}`);
    }
    if (agent.kind !== "mcp" && (typeof agent.spec !== "string" || !agent.spec.trim())) {
      throw new Error(
        `fresh.config.ts: Agent "${agent.id}": "spec" must be a non-empty string. Fix: write it.`,
      );
    }
  }
}
