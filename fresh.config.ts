import { defineConfig } from "@/lib/config.ts";

export default defineConfig({
  site: {
    name: "Assistente do Site",
    owner: "a equipe que mantém este site",
    url: null,
  },
  allowedOrigins: [],
  maxSteps: 7,
  // A provider that sends nothing for this long is given up (raise them for a slow local model).
  modelDeadlines: { firstByteMs: 20_000, idleMs: 30_000 },
  maxOutputTokens: 4096,
  retentionDays: 30,
  suggestions: {
    "pt-BR": [
      "Como o assistente encontra as respostas?",
      "Quais dados vocês guardam e por quanto tempo?",
      "Como faço para publicar o assistente no meu site?",
    ],
    en: [
      "How does the assistant find its answers?",
      "What data do you keep, and for how long?",
      "How do I deploy the assistant on my site?",
    ],
  },
  limits: {
    visitor: { requestsPerMinute: 20, tokensPerDay: 200_000 },
    ip: { requestsPerMinute: 60, tokensPerDay: 1_000_000 },
  },
  maxBodyBytes: 256 * 1024,
});
