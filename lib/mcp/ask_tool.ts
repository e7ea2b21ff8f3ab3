/**
 * The MCP tool `ask_site`: the chat's own answer, not a second answerer. The question runs
 * through the same turn as POST /api/chat (lib/chat/turn_http.ts), in process: the same search,
 * model, citation filter and limits (the caller's address counts against the chat's per-IP
 * allowance). The turn runs without agents: an MCP caller is not a visitor who could approve
 * an agent's call, so no agent operation is offered to the model at all. The one-question
 * chat the turn saves is deleted once its answer has been read.
 */
import type { Ctx } from "@/lib/define.ts";
import type { AppServices } from "@/lib/services.ts";
import type { ErrorBody } from "@/lib/http/errors.ts";
import { chatStack } from "@/lib/chat/lazy.ts";

/** A numbered source of the answer. */
export interface AskSource {
  [key: string]: unknown;
  n: number;
  title: string;
  url: string;
}

/** What `ask_site` returns (its `structuredContent`). */
export interface AskReply {
  [key: string]: unknown;
  answer: string;
  sources: AskSource[];
  citations: { valid: number; invalid: number };
  model: string;
}

/** A refusal of the turn (limits, a bad question, an unavailable model): the message says why. */
export class AskError extends Error {
  constructor(message: string, readonly retryAfterSeconds?: number) {
    super(message);
    this.name = "AskError";
  }
}

/** Who asks: the caller's address (per-IP limits) and the answer's language. */
export interface AskCaller {
  ip: string;
  locale: "pt-BR" | "en";
  /** The origin the turn's source URLs start with. */
  origin: string;
}

// One services object per app whose agents are none, so the chat stack built for it offers the
// model no agent tool; everything else (KV, limits, models, search) is the app's own.
const withoutAgents = new WeakMap<AppServices, AppServices>();

function askServices(app: AppServices): AppServices {
  let services = withoutAgents.get(app);
  if (!services) {
    services = { ...app, agentConfigs: [], agents: [], loadAgents: () => Promise.resolve([]) };
    withoutAgents.set(app, services);
  }
  return services;
}

/** Asks `question` through the chat turn with `app.mcp.askModel`. */
export async function askSite(
  app: AppServices,
  question: string,
  caller: AskCaller,
): Promise<AskReply> {
  const services = askServices(app);
  const stack = await chatStack(services).catch(() => {
    throw new AskError("The site's assistant could not start. Try again shortly.");
  });
  const chatId = `mcp_${crypto.randomUUID().replaceAll("-", "")}`;
  const req = new Request(new URL("/api/chat", caller.origin), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: chatId,
      model: app.mcp.askModel,
      message: { id: "q1", role: "user", parts: [{ type: "text", text: question }] },
    }),
  });
  const ctx: Ctx = {
    req,
    url: new URL(req.url),
    params: {},
    state: { remoteAddr: caller.ip, locale: caller.locale },
    app: services,
    render: () => {
      throw new Error("The chat turn renders no page.");
    },
    next: () => Promise.reject(new Error("The chat turn has no next handler.")),
  };
  const res = await stack.chatTurn(ctx);
  if (res.status !== 200) throw await refusal(res);
  try {
    return { ...readTurn(await res.text()), model: app.mcp.askModel };
  } finally {
    await app.store.deleteChat(chatId).catch((error) =>
      console.error(`ask_site could not delete its chat "${chatId}":`, error)
    );
  }
}

/** The turn's JSON refusal as an `AskError`. */
async function refusal(res: Response): Promise<AskError> {
  const body = await res.json().catch(() => null) as ErrorBody | null;
  const message = body?.error?.message ?? `The assistant answered ${res.status}.`;
  const retry = Number(res.headers.get("retry-after"));
  return new AskError(message, Number.isFinite(retry) && retry > 0 ? retry : undefined);
}

/** The answer, its sources and its citation count from the turn's SSE body. */
export function readTurn(raw: string): Pick<AskReply, "answer" | "sources" | "citations"> {
  let answer = "";
  const sources: AskSource[] = [];
  let citations = { valid: 0, invalid: 0 };
  for (const line of raw.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const chunk = JSON.parse(line.slice(6));
    if (chunk.type === "text-delta") answer += chunk.delta;
    else if (chunk.type === "source-url") {
      sources.push({ n: Number(chunk.sourceId), title: chunk.title ?? "", url: chunk.url });
    } else if (chunk.type === "error") {
      throw new AskError("The assistant could not answer this time. Try again shortly.");
    } else if (chunk.type === "message-metadata" && chunk.messageMetadata?.citations) {
      citations = chunk.messageMetadata.citations;
    }
  }
  return { answer: answer.trim(), sources, citations };
}

/** The reply as text: the answer, then its numbered sources. */
export function askReplyText(reply: AskReply): string {
  if (!reply.sources.length) return reply.answer;
  const list = reply.sources.map((s) => `[${s.n}] ${s.title} — ${s.url}`).join("\n");
  return `${reply.answer}\n\nSources:\n${list}`;
}
