import { define } from "@/lib/http/define.ts";

/** The model catalog with availability, for the model picker. */
export const handler = define.handlers({
  GET(ctx) {
    const models = ctx.app.models.list().map((m) => ({
      id: m.id,
      label: m.label,
      family: m.family,
      provider: m.provider,
      capabilities: m.capabilities,
      contextWindow: m.contextWindow,
      pricing: m.pricing,
      available: m.available,
    }));
    return Response.json({ defaultModel: ctx.app.models.defaultModelId(), models }, {
      headers: { "Cache-Control": "no-store" },
    });
  },
});
