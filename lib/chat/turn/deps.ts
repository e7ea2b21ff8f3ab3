/**
 * The ports a chat turn runs on: the store, the site search, the models, the clock, the
 * stream log and the rest of what a turn reads or writes, and nothing of HTTP. The app's
 * services (lib/services.ts) satisfy it; a test passes services over in-memory KV.
 */
import type { AppConfig } from "@/lib/config.ts";
import type { ContextSealer } from "@/lib/agents/context_seal.ts";
import type { ModelRegistry } from "@/lib/models/types.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import type { ChatStore } from "@/lib/store/ports.ts";
import type { RateLimiter } from "@/lib/store/limits.ts";
import type { StreamLog } from "@/lib/store/ports.ts";
import type { BackgroundWrites } from "@/lib/store/background.ts";
import type { ReadyAgent, SelfApp } from "@/lib/tools/agent_tools.ts";
import type { ApprovalSigner } from "../approvals.ts";

/** What `runChatTurn` needs from the app. */
export interface TurnDeps {
  config: AppConfig;
  /** For the approvals' single-use claims and the content gaps. */
  kv: Deno.Kv;
  store: ChatStore;
  search: SiteSearch;
  models: ModelRegistry;
  /** Milliseconds since the epoch; tests pass a fixed clock. */
  clock: () => number;
  limits: RateLimiter;
  /** The chunk log of answers in flight (any isolate can resume or stop them). */
  streamLog: StreamLog;
  /** Writes beside the answer (its content gap, its token count) that closing waits for. */
  background: BackgroundWrites;
  approvals: ApprovalSigner;
  contextSeal: ContextSealer;
  /** The configured agents with their specs loaded. */
  agents: readonly ReadyAgent[];
  /** This app's handler, for in-process calls of "self" agents. */
  selfApp: SelfApp | null;
  /** Window in which an answer's deltas are merged into one chunk; 0: none. */
  deltaMergeMs: number;
}
