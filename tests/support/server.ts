/**
 * Starts the real app on a random loopback port for integration and e2e
 * tests: in-memory KV and an environment without provider keys unless given.
 */
import { createServerApp, type ServerOptions } from "@/lib/server.ts";
import type { AppServices } from "@/lib/services.ts";
import { testConfig } from "./chat_client.ts";
import { openaiReplayEnv } from "./ui.ts";
import { type ReplayScript, type ReplayServer, startReplayServer } from "./replay_server.ts";

/** A running test server. */
export interface TestServer {
  url: string;
  services: AppServices;
  close(): Promise<void>;
}

/** Serves the app with `options` on 127.0.0.1 and an OS-chosen port. */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const ownKv = !options.kv;
  const kv = options.kv ?? await Deno.openKv(":memory:");
  const { app, services } = await createServerApp({ env: {}, requestLog: null, ...options, kv });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app);
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    services,
    async close() {
      await server.shutdown();
      // As the production entry does: the writes made beside responses land first.
      await services.background.settled();
      if (ownKv) kv.close();
    },
  };
}

/**
 * The app whose OpenAI model (Chat Completions) is a replay server playing `script`;
 * `options` adds to (or overrides) the test server's.
 */
export async function startReplayedApp(script: ReplayScript, options: ServerOptions = {}): Promise<{
  replay: ReplayServer;
  server: TestServer;
  /** Closes the app, then the replay server. */
  close(): Promise<void>;
}> {
  const replay = startReplayServer(script);
  const server = await startTestServer({
    env: openaiReplayEnv(replay.url),
    config: testConfig(),
    ...options,
  });
  return {
    replay,
    server,
    async close() {
      await server.close();
      await replay.close();
    },
  };
}
