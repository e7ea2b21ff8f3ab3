/**
 * Starts the real app on a random loopback port for integration tests.
 */
import { createServerApp, type ServerOptions } from "@/lib/server.ts";

/** A running test server. */
export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the app with `options` on 127.0.0.1 and an OS-chosen port. */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const { app } = await createServerApp(options);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app);
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await server.shutdown();
    },
  };
}
