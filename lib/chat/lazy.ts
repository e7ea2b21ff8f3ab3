/**
 * The chat stack, loaded on first use or by the warm-up once the server listens, never on
 * the way to the first page, so a cold start serves it sooner: the chat engine and the turn, the AI
 * SDK, the provider packages of the configured providers, and the agents' specs. The
 * routes that need it (POST /api/chat, POST /api/title) import only this module; the
 * test `tests/integration/cold_start_test.ts` keeps the stack out of the pages' module graph.
 *
 * The imports are plain `import()`s: deno.json's `"unstable": ["lazy-dynamic-imports"]` makes
 * Deno load them when they run, not before main.ts starts (docs/cold-start.md).
 */
import type { generateText } from "ai";
import { errorResponse } from "@/lib/http/errors.ts";
import type { App } from "@/lib/http/types.ts";
import type { AppServices } from "@/lib/services.ts";
import type { chatTurn } from "@/lib/chat/turn_http.ts";

/** What the chat routes take from the stack. */
export interface ChatStack {
  /** POST /api/chat (lib/chat/turn_http.ts). */
  chatTurn: typeof chatTurn;
  /** The AI SDK's one-shot call (POST /api/title). */
  generateText: typeof generateText;
}

const stacks = new WeakMap<AppServices, Promise<ChatStack>>();

/**
 * The chat stack of `app`, loaded once. The first call loads the modules and the agents'
 * specs and sets `app.agents`; a failed load (a bad spec, a spec URL that did not answer)
 * rejects this call and is tried again by the next.
 */
export function chatStack(app: AppServices): Promise<ChatStack> {
  let stack = stacks.get(app);
  if (!stack) {
    stack = loadStack(app);
    stacks.set(app, stack);
    stack.catch(() => stacks.delete(app));
  }
  return stack;
}

async function loadStack(app: AppServices): Promise<ChatStack> {
  // Both modules load in parallel with the provider packages and the specs.
  const [turn, ai, agents] = await Promise.all([
    import("@/lib/chat/turn_http.ts"),
    import("ai"),
    app.loadAgents(),
    app.models.ready(),
  ]);
  app.agents = agents;
  return { chatTurn: turn.chatTurn, generateText: ai.generateText };
}

/**
 * Starts loading the chat stack in the background (main.ts and dev.ts call it once the
 * server listens), so the first chat does not wait for it. A failure is logged with its
 * fix here, at start, and the chat routes answer 503 until a load succeeds.
 */
export function warmChatStack(app: AppServices): Promise<void> {
  return chatStack(app).then(
    () => {},
    (error) => console.error(`The chat could not start: ${(error as Error).message}`),
  );
}

/** The 503 a chat route answers while the stack cannot load; the cause goes to the log. */
export function stackUnavailable(error: unknown): Response {
  console.error(`The chat could not start: ${(error as Error)?.message ?? error}`);
  return errorResponse(
    "unavailable",
    "The chat is unavailable: the server could not load it. Please try again shortly.",
  );
}

/**
 * `app`, starting `warmUp` (lib/server.ts) once the first response is on its way, or after
 * `idleMs` without a request: a cold start is usually a visitor's first page, and loading the
 * chat stack takes the one thread that would answer it. A first request that is a chat loads
 * the stack itself, at once.
 */
export function warmAfterFirstResponse(
  app: App,
  warmUp: () => Promise<void>,
  idleMs = 250,
): App {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    clearTimeout(idle);
    warmUp();
  };
  const idle = setTimeout(start, idleMs);
  Deno.unrefTimer(idle);
  return async (req, info) => {
    const res = await app(req, info);
    if (!started) setTimeout(start, 0);
    return res;
  };
}
