import { define } from "@/lib/define.ts";

/** Liveness and readiness of the parts the assistant needs. */
export const handler = define.handlers({
  async GET(ctx) {
    const { app } = ctx;
    let kv: "ok" | "unavailable" = "ok";
    try {
      await app.kv.get(["health"], { consistency: "eventual" });
    } catch (error) {
      console.error("Health: KV read failed:", error);
      kv = "unavailable";
    }
    await app.search.ready?.(); // the engine loads on first use (lib/search/lazy_search.ts)
    const index = app.search.status();
    const body = {
      status: kv === "ok" && index.status === "ok" ? "ok" : "degraded",
      version: app.version,
      kv,
      index,
      providers: app.models.providerStatus(),
      defaultModel: app.models.defaultModelId(),
    };
    return Response.json(body, {
      status: kv === "ok" ? 200 : 503,
      headers: { "Cache-Control": "no-store" },
    });
  },
});
