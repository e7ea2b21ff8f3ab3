import { defineConfig } from "@/lib/config.ts";

export default defineConfig({
  site: {
    // One string for every language, or one per language (each UI language shows its own).
    name: { "pt-BR": "Assistente do Site", en: "Site Assistant" },
    owner: "a equipe que mantém este site",
    // The site's public origin ("https://example.com"): source links point there, and an
    // import's --base-url should be it (only the site's own origins are cited).
    url: null,
  },
  allowedOrigins: [],
  maxSteps: 7,
  // "prefetch": the site search runs on the question before the first model call (one provider
  // round trip to the first word); "tool": the model decides when to search.
  retrieval: "prefetch",
  // A provider that sends nothing for this long is given up (raise them for a slow local model).
  modelDeadlines: { firstByteMs: 20_000, idleMs: 30_000 },
  maxOutputTokens: 4096,
  // Tool calls the model may make in one step and in one turn (the rest are refused with an
  // error it reads), and how many run at once.
  toolCalls: { perStep: 8, perTurn: 24, concurrency: 4 },
  // A turn nobody listens to (connection gone, no tab following it) for this long is aborted.
  abandonAfterSeconds: 30,
  retentionDays: 30,
  // Suggested questions come from the site's content (its FAQ questions, then page titles);
  // `suggestions: { "pt-BR": [...], en: [...] }` sets a language's list by hand instead.
  limits: {
    visitor: { requestsPerMinute: 20, tokensPerDay: 200_000 },
    ip: { requestsPerMinute: 60, tokensPerDay: 1_000_000 },
  },
  maxBodyBytes: 256 * 1024,
  // OpenAPI agents: each operation of the spec becomes a tool of the chat. GET runs at once,
  // other methods wait for the visitor's approval; `approvalMode: "all"` makes reads wait too
  // (see "approvalMode" and "approval" in lib/agents/types.ts, and docs/agents-security.md).
  agents: [
    {
      // The built-in agent: this app's own contact API (POST /api/contact, GET /api/contact/status).
      id: "contact",
      name: { "pt-BR": "Recado para o dono do site", en: "Message to the site owner" },
      description: {
        "pt-BR": "Envia um recado do visitante ao dono do site, que responde por email.",
        en: "Sends the visitor's message to the site owner, who answers by email.",
      },
      spec: "static/agents/contact.json",
      // "self": this app's own origin (site.url, else the request's); calls are handled
      // in-process, never sent over the network (lib/agents/self_agent.ts).
      baseUrl: "self",
      runIn: "server",
    },
  ],
});
