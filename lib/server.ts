/**
 * Assembles the app: configuration, KV, search, models and the generated
 * manifest. Shared by main.ts (production), dev.ts and the integration tests.
 *
 * Nothing here loads the chat stack (the AI SDK, the provider packages, the engine, the
 * agents' specs): the pages never need it, and a cold start that waited for it would make
 * every first visitor wait too. lib/chat/lazy.ts loads it on the first chat, or earlier
 * through `warmUp` once the server listens.
 */
import { withDismissedQuestions } from "@/lib/search/dismissed.ts";
import { dismissalsVersion, listDismissals } from "@/lib/store/gap_dismissals.ts";
import { createBackgroundWrites } from "@/lib/store/background.ts";
import manifest from "@/fresh.gen.ts";
import defaultConfig from "@/fresh.config.ts";
import type { AppConfig } from "@/lib/config.ts";
import { createApp } from "@/lib/http/app.ts";
import type { App } from "@/lib/http/types.ts";
import { createAdminSessions } from "@/lib/admin/session.ts";
import type { IslandAssets } from "@/lib/http/types.ts";
import {
  createVisitorSigner,
  loadSessionSecret,
  secureCookiesFromEnv,
} from "@/lib/http/visitor.ts";
import { readIslandAssets } from "@/lib/islands/build.ts";
import { assetsDir } from "@/lib/islands/assets_dir.ts";
import { createModelRegistry } from "@/lib/models/registry.ts";
import type { Env } from "@/lib/models/types.ts";
import { type LazyEmbedder, lazyEmbedderFromEnv } from "@/lib/search/lazy_embedder.ts";
import { lazySiteSearch } from "@/lib/search/lazy_search.ts";
import { lazyPgSearch } from "@/lib/search/postgres/lazy.ts";
import { withPgOwnerAnswers } from "@/lib/search/postgres/owner_answers.ts";
import { withOwnerAnswers } from "@/lib/search/owner_overlay.ts";
import { createOwnerAnswers } from "@/lib/store/owner_answers.ts";
import type { SiteSearch } from "@/lib/search/types.ts";
import { type AppServices, VERSION } from "@/lib/services.ts";
import { createKvChatStore } from "@/lib/store/chats.ts";
import { createContactStore } from "@/lib/store/contact.ts";
import { kvWatchSeesEveryWriter, openKv } from "@/lib/store/kv.ts";
import { createRateLimiter } from "@/lib/store/limits.ts";
import { createLoginAttempts, loginLimitFromEnv } from "@/lib/store/login_attempts.ts";
import { createAdminSessionStore } from "@/lib/store/admin_sessions.ts";
import { createKvUsageRecorder } from "@/lib/store/usage.ts";
import { createRecentErrors } from "@/lib/store/recent_errors.ts";
import type { ServerErrorEntry } from "@/lib/telemetry/server_error.ts";
import { createStreamLog } from "@/lib/store/stream_log.ts";
import { createApprovalSigner } from "@/lib/chat/approvals.ts";
import { createContextSealer } from "@/lib/agents/context_seal.ts";
import { createVisitorTokens } from "@/lib/http/visitor_token.ts";
import { parseArtifactOrigin } from "@/lib/artifacts/origin.ts";
import { warmChatStack } from "@/lib/chat/lazy.ts";
import { DELTA_MERGE_MS } from "@/lib/chat/delta_merge.ts";
import { resolveAgentHeaders } from "@/lib/agents/agent_config.ts";
import type { AgentConfig } from "@/lib/agents/types.ts";
import type { ReadyAgent } from "@/lib/tools/agent_tools.ts";
import { cachedAgents } from "@/lib/tools/agent_cache.ts";
import { mcpSettingsFromEnv } from "@/lib/mcp/settings.ts";

/** Options of `createServerApp`; everything has a production default. */
export interface ServerOptions {
  root?: URL;
  dev?: boolean;
  /** Environment (default: the process's). */
  env?: Env;
  config?: AppConfig;
  /** An open KV; default opens DENO_KV_PATH. */
  kv?: Deno.Kv;
  /**
   * Whether `kv.watch` on `kv` sees every process's writes (an in-memory KV, Deno Deploy's):
   * then the stream log does not poll. Default: false for a given `kv`, and for the one
   * opened here what `kvWatchSeesEveryWriter(DENO_KV_PATH)` says.
   */
  kvWatchSeesEveryWriter?: boolean;
  /** The fetch providers use (tests point it at a replay server). */
  fetch?: typeof fetch;
  search?: SiteSearch;
  /** Island assets; read from `_islands/manifest.json` of `assetsDir` when omitted. */
  islandAssets?: IslandAssets | null;
  /**
   * Folder of the build's island bundles and widget scripts. Default: ASSETS_DIR of the
   * process (not of `env`: it says where this checkout's build wrote, which tests that swap
   * `env` still need), else static/ (lib/islands/assets_dir.ts).
   */
  assetsDir?: URL;
  /** Overrides of individual services (tests). */
  services?: Partial<AppServices>;
  /**
   * Where the JSON line of each request goes (lib/http/request_log.ts); null for none.
   * Default: stdout, unless REQUEST_LOG=off.
   */
  requestLog?: ((line: string) => void) | null;
}

/** The app, its services, and the warm-up to start once the server listens. */
export interface ServerApp {
  app: App;
  services: AppServices;
  /**
   * Loads the chat stack and the query embedder in the background (lib/chat/lazy.ts), so
   * the first chat does not wait for them; failures are logged with their fix. Call it
   * once the server listens: the first page must not wait for it either.
   */
  warmUp(): Promise<void>;
}

/** Builds the query embedder now; a misconfiguration is logged and search stays lexical. */
async function warmEmbedder(embedder: LazyEmbedder | null): Promise<void> {
  try {
    await embedder?.load();
  } catch (error) {
    console.error(
      `EMBEDDING_MODEL is misconfigured, searching lexically: ${(error as Error).message}`,
    );
  }
}

/**
 * Loads every agent's operations when the chat stack first needs them: from the build's
 * cache (lib/tools/agent_cache.ts) when it is current, else from the specs
 * (lib/tools/load_agents.ts, with the OpenAPI validator). A header variable missing from
 * `env` is checked at once, since no build can: the start stops with a message naming the
 * agent and the fix. A bad spec stops `deno task build`, and at run time is logged at start
 * by the warm-up.
 */
function agentLoader(agents: readonly AgentConfig[], root: URL, env: Env) {
  for (const agent of agents) resolveAgentHeaders(agent, env);
  return async (): Promise<ReadyAgent[]> => {
    // What the build checked, when nothing changed since: no OpenAPI validation at run time.
    const cached = await cachedAgents(agents, root);
    if (cached) {
      return cached.map((one) => ({ ...one, headers: resolveAgentHeaders(one.agent, env) }));
    }
    const { loadAgents, readyAgents } = await import("@/lib/tools/load_agents.ts");
    return readyAgents(await loadAgents(agents, { root }), env);
  };
}

/** The agents' configs and their loader: the given agents, or the config's loaded on demand. */
function agentsOf(options: ServerOptions, config: AppConfig, root: URL, env: Env) {
  const given = options.services?.agents;
  const agentConfigs = given?.map((a) => a.agent) ?? config.agents ?? [];
  const loadAgents = given ? () => Promise.resolve(given) : agentLoader(agentConfigs, root, env);
  return { agentConfigs, loadAgents };
}

/** Builds the request handler of the whole app. */
export async function createServerApp(
  options: ServerOptions = {},
): Promise<ServerApp> {
  const root = options.root ?? new URL("../", import.meta.url);
  const dev = options.dev ?? false;
  const env = options.env ?? Deno.env.toObject();
  const config = options.config ?? defaultConfig;
  const { agentConfigs, loadAgents } = agentsOf(options, config, root, env);
  const assets = options.assetsDir ?? assetsDir(root);
  const islandAssets = await islandAssetsOf(options, root, assets);
  const kv = options.kv ?? await openKv(env.DENO_KV_PATH);
  const watchSeesAll = options.kvWatchSeesEveryWriter ??
    (!options.kv && kvWatchSeesEveryWriter(env.DENO_KV_PATH));
  const clock = Date.now;
  const usage = createKvUsageRecorder(kv);
  const ownerAnswers = createOwnerAnswers(kv, clock);
  const { search, embedder } = await siteSearchOf(options, env, root, ownerAnswers, kv);
  const secureCookies = options.services?.secureCookies ?? secureCookiesFromEnv(env);
  const sessionSecret = await loadSessionSecret(kv, env);
  const services: AppServices = {
    config,
    version: VERSION,
    dev,
    kv,
    store: createKvChatStore(kv, { retentionDays: config.retentionDays }),
    contact: createContactStore(kv, { retentionDays: config.retentionDays, clock }),
    search,
    ownerAnswers,
    models: createModelRegistry({
      env,
      fetch: options.fetch,
      recorder: usage,
      clock,
      deadlines: config.modelDeadlines,
    }),
    signer: await createVisitorSigner(sessionSecret, {
      secure: secureCookies,
      tokens: await createVisitorTokens(sessionSecret, kv),
    }),
    approvals: createApprovalSigner(sessionSecret),
    contextSeal: createContextSealer(sessionSecret),
    secureCookies,
    limits: createRateLimiter(kv, config.limits, clock),
    usage,
    adminToken: env.ADMIN_TOKEN || null,
    loginAttempts: createLoginAttempts(kv, loginLimitFromEnv(env)),
    adminSessions: await createAdminSessions(sessionSecret, createAdminSessionStore(kv), {
      secure: secureCookies,
    }),
    clock,
    heartbeatMs: 15_000,
    deltaMergeMs: DELTA_MERGE_MS,
    streamLog: createStreamLog(kv, { pollMs: watchSeesAll ? null : undefined }),
    background: createBackgroundWrites(),
    agentConfigs,
    agents: [],
    loadAgents,
    artifactOrigin: parseArtifactOrigin(env.ARTIFACT_ORIGIN),
    selfApp: null,
    mcp: mcpSettingsFromEnv(env),
    ...options.services,
  };
  const app = createApp({
    manifest,
    services,
    staticDir: new URL("static/", root),
    assetsDir: assets,
    islandAssets,
    dev,
    connectOrigins: browserAgentOrigins(services.agentConfigs),
    requestLog: requestLogOptions(options.requestLog, env, kv),
    frameOrigins: services.artifactOrigin ? [services.artifactOrigin] : [],
  });
  // "self" agents (the built-in contact agent) are served by this very app, in-process.
  services.selfApp ??= app;
  return { app, services, warmUp: () => warmUp(services, embedder) };
}

/** Loads what the first chat would wait for: the chat stack, the embedder, the search. */
async function warmUp(services: AppServices, embedder: LazyEmbedder | null): Promise<void> {
  await Promise.all([
    warmChatStack(services),
    warmEmbedder(embedder),
    services.search.ready?.().catch((error) => console.error("The search could not load:", error)),
  ]);
}

/** The built islands' manifest (given, or read from the assets); a warning when it is missing. */
async function islandAssetsOf(options: ServerOptions, root: URL, assets: URL) {
  const islandAssets = options.islandAssets !== undefined
    ? options.islandAssets
    : await readIslandAssets(root, assets);
  if (!islandAssets) {
    const path = decodeURIComponent(new URL("_islands/manifest.json", assets).pathname);
    console.warn(`"${path}" is missing: run \`deno task build\` first.`);
  }
  return islandAssets;
}

/**
 * The site search (given, or the built index loaded on first use) with the owner's answers
 * (/admin/gaps) searched beside it, live, and the questions the owner dismissed finding nothing;
 * and the query embedder the warm-up loads.
 */
async function siteSearchOf(
  options: ServerOptions,
  env: Env,
  root: URL,
  ownerAnswers: ReturnType<typeof createOwnerAnswers>,
  kv: Deno.Kv,
) {
  // Both built on the first query (or by warmUp): the AI SDK and the engine stay out of the
  // cold start.
  const embedder = options.search ? null : lazyEmbedderFromEnv(env);
  const database = env.SEARCH_DATABASE_URL?.trim();
  // SEARCH_DATABASE_URL: the index, and the owner's answers with it, live in Postgres
  // (docs/postgres-search.md), not in each isolate's memory.
  const answered = !options.search && database
    ? withPgOwnerAnswers(lazyPgSearch(database, embedder, env.SEARCH_LEXICON), ownerAnswers)
    : withOwnerAnswers(
      options.search ?? lazySiteSearch(({ lexiconChoiceFromEnv }) => ({
        assetPath: new URL("build/search/index.bin", root),
        embedder,
        ...lexiconChoiceFromEnv(env),
      })),
      ownerAnswers,
    );
  const search = withDismissedQuestions(answered, {
    version: () => dismissalsVersion(kv),
    list: () => listDismissals(kv),
  });
  // An owner's lexicon is read at start, so a path that cannot be read stops it, as before.
  const lexicon = env.SEARCH_LEXICON?.trim();
  if (lexicon && lexicon !== "off") await search.ready?.();
  return { search, embedder };
}

/** The request log's sink and the ring of recent errors it feeds. */
function requestLogOptions(write: ServerOptions["requestLog"], env: Env, kv: Deno.Kv) {
  if (write === null || (write === undefined && env.REQUEST_LOG === "off")) return null;
  const errors = createRecentErrors(kv);
  return { write, onServerError: (entry: ServerErrorEntry) => void errors.record(entry) };
}

/** The origins of agents that run in the visitor's browser: their pages may fetch from them. */
function browserAgentOrigins(agents: readonly AgentConfig[]): string[] {
  return [
    ...new Set(
      agents.filter((a) => a.runIn === "browser" && URL.canParse(a.baseUrl)).map((a) =>
        new URL(a.baseUrl).origin
      ),
    ),
  ];
}
