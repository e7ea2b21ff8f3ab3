/**
 * The services every route receives as `ctx.app`. Built once per process by
 * lib/server.ts; tests build their own with in-memory parts.
 */
import type { BackgroundWrites } from "@/lib/store/background.ts";
import type { AppConfig } from "@/lib/config.ts";
import type { VisitorSigner } from "@/lib/http/visitor.ts";
import type { AdminSessions } from "@/lib/admin/session.ts";
import type { ModelRegistry } from "@/lib/models/types.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import type { ChatStore } from "@/lib/store/ports.ts";
import type { ContactStore } from "@/lib/store/contact.ts";
import type { OwnerAnswers } from "@/lib/store/owner_answers.ts";
import type { RateLimiter } from "@/lib/store/limits.ts";
import type { LoginAttempts } from "@/lib/store/login_attempts.ts";
import type { UsageTotal } from "@/lib/store/usage.ts";
import type { StreamLog } from "@/lib/store/ports.ts";
import type { ApprovalSigner } from "@/lib/chat/approvals.ts";
import type { ContextSealer } from "@/lib/agents/context_seal.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import type { ReadyAgent, SelfApp } from "@/lib/tools/agent_tools.ts";
import type { McpSettings } from "@/lib/mcp/settings.ts";

/** Application version, reported by /api/health. */
export const VERSION = "0.1.0";

/** What handlers can reach. */
export interface AppServices {
  config: AppConfig;
  version: string;
  /** Development mode (dev.ts): detailed error pages, no static caching. */
  dev: boolean;
  kv: Deno.Kv;
  store: ChatStore;
  /** Messages to the site owner (POST /api/contact, /admin/messages). */
  contact: ContactStore;
  search: SiteSearch;
  /** The site team's answers to content gaps (/admin/gaps), searched beside the index. */
  ownerAnswers: OwnerAnswers;
  models: ModelRegistry;
  signer: VisitorSigner;
  /** Signs the approvals the chat asks the visitor for, and verifies them before execution. */
  approvals: ApprovalSigner;
  /** Seals the context header of "self" agents' calls; POST /api/contact trusts only sealed ones. */
  contextSeal: ContextSealer;
  /** Secure cookies (`__Host-visitor`): in production or with COOKIE_SECURE=true; see secureCookiesFromEnv. */
  secureCookies: boolean;
  limits: RateLimiter;
  usage: { totals(options?: { days?: number }): Promise<UsageTotal[]> };
  /** Bearer token for admin endpoints; null disables them. */
  adminToken: string | null;
  /** The limit of admin sign-in tries (wrong tokens, forged session cookies). */
  loginAttempts: LoginAttempts;
  /** The admin's sign-in sessions (cookie after /admin/login), kept in KV. */
  adminSessions: AdminSessions;
  clock: () => number;
  /** The chunk log of answers in flight (any isolate can resume or stop them). */
  streamLog: StreamLog;
  /** Writes made beside responses (content gaps, token counts): closing waits for them. */
  background: BackgroundWrites;
  /** Silence after which the chat stream sends a heartbeat comment. */
  heartbeatMs: number;
  /** Window in which an answer's deltas are merged into one chunk (lib/chat/delta_merge.ts); 0: none. */
  deltaMergeMs: number;
  /**
   * The configured agents (fresh.config.ts `agents`) as the pages show them: no spec needed,
   * so the shell never waits for one.
   */
  agentConfigs: readonly AgentConfig[];
  /**
   * The configured agents with their specs loaded and headers resolved; lib/tools/mod.ts
   * `turnTools` makes their operations tools of a turn. Empty until the chat stack has
   * loaded (lib/chat/lazy.ts sets it from `loadAgents` before the first turn runs).
   */
  agents: ReadyAgent[];
  /** The origin artifact previews are served from (`ARTIFACT_ORIGIN`); null: `srcdoc` frames. */
  artifactOrigin: string | null;
  /** Loads and checks every agent's spec (lib/tools/load_agents.ts); the chat stack calls it. */
  loadAgents: () => Promise<ReadyAgent[]>;
  /** This app's handler, for in-process calls of "self" agents (set once the app is built). */
  selfApp: SelfApp | null;
  /** The MCP server at `/mcp` (MCP_ENABLED, MCP_TOKEN…; lib/mcp/settings.ts). */
  mcp: McpSettings;
}
