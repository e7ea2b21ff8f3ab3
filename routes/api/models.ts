import { define } from "@/lib/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { localize } from "@/lib/i18n/localized.ts";

/**
 * The model catalog with availability, for the model picker. `label` is in the request's
 * language; `labels` has every language, since the picker shows the page's (the widget's
 * `data-lang` may differ from the browser's).
 */
export const handler = define.handlers({
  GET(ctx) {
    const locale = localeOf(ctx.state);
    const models = ctx.app.models.list().map((m) => ({
      id: m.id,
      label: localize(m.label, locale),
      labels: { "pt-BR": localize(m.label, "pt-BR"), en: localize(m.label, "en") },
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
