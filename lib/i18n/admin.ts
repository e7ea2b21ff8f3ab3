/**
 * The admin pages' strings (/admin, /admin/login), Portuguese and English. Apart from
 * pt_br.ts and en.ts because only server-rendered admin pages use them: no island bundle
 * carries them.
 */
import type { Locale } from "./mod.ts";

/** Portuguese. */
export const ptBRAdmin = {
  adminTitle: "Painel do assistente",
  adminIntro: "Uso, latência, erros e retorno dos visitantes nos últimos {days} dias.",
  adminUsage: "Uso por dia e modelo",
  adminUsageChart: "Tokens por dia (entrada + saída), todos os modelos",
  adminUsageEmpty: "Nenhuma chamada de modelo registrada neste período.",
  adminDay: "Dia",
  adminModel: "Modelo",
  adminCalls: "Chamadas",
  adminErrorsCol: "Erros",
  adminInputTokens: "Tokens de entrada",
  adminOutputTokens: "Tokens de saída",
  adminCost: "Custo (US$)",
  adminStopped: "Interrompidas",
  adminStoppedTokens: "Tokens das interrompidas",
  adminStoppedNote:
    "Respostas interrompidas contam: seus tokens entram nos totais, estimados (~4 caracteres por token) quando o provedor ainda não os havia informado.",
  adminLatency: "Latência por chamada",
  adminRoute: "Rota",
  adminTtfb: "Primeiro byte p50 / p95 (ms)",
  adminTotal: "Total p50 / p95 (ms)",
  adminErrors: "Erros recentes",
  adminErrorsEmpty: "Nenhum erro registrado nos últimos 7 dias.",
  adminWhen: "Quando",
  adminStatus: "Status",
  adminError: "Erro",
  adminRequest: "Requisição",
  adminFeedback: "Retorno dos visitantes",
  adminFeedbackCounts: "{up} 👍 · {down} 👎 (entre os últimos listados)",
  adminFeedbackEmpty: "Nenhum retorno ainda.",
  adminFeedbackChat: "Conversa",
  adminFeedbackComment: "Comentário",
  adminContact: "Mensagens recebidas",
  adminContactEmpty: "Nenhuma mensagem.",
  adminContactAll: "Ver todas as mensagens",
  adminIndex: "Índice de busca",
  adminIndexDocs: "Documentos",
  adminIndexPassages: "Trechos",
  adminIndexMode: "Modo",
  adminIndexBuilt: "Gerado em",
  adminIndexSize: "Tamanho (bytes)",
  adminIndexUnavailable: "Indisponível: {error}",
  adminLogout: "Sair",
  adminLoginTitle: "Entrar no painel",
  adminLoginIntro: "Digite o ADMIN_TOKEN deste assistente. A sessão dura 12 horas.",
  adminLoginToken: "Token de administração",
  adminLoginSubmit: "Entrar",
  adminLoginWrong: "Token incorreto.",
  adminLoginLimited:
    "Muitas tentativas com token incorreto deste endereço. Tente de novo em {minutes} min.",
  adminLoginDisabled: "Defina ADMIN_TOKEN para habilitar o painel.",
  adminUnknown: "desconhecido",
};

/** The admin strings' shape. */
export type AdminMessages = typeof ptBRAdmin;

/** English. */
export const enAdmin: AdminMessages = {
  adminTitle: "Assistant dashboard",
  adminIntro: "Usage, latency, errors and visitors' feedback over the last {days} days.",
  adminUsage: "Usage by day and model",
  adminUsageChart: "Tokens per day (input + output), all models",
  adminUsageEmpty: "No model call recorded in this period.",
  adminDay: "Day",
  adminModel: "Model",
  adminCalls: "Calls",
  adminErrorsCol: "Errors",
  adminInputTokens: "Input tokens",
  adminOutputTokens: "Output tokens",
  adminCost: "Cost (US$)",
  adminStopped: "Stopped",
  adminStoppedTokens: "Tokens of stopped calls",
  adminStoppedNote:
    "Stopped answers count: their tokens are in the totals, estimated (~4 characters a token) when the provider had not reported them yet.",
  adminLatency: "Per-call latency",
  adminRoute: "Route",
  adminTtfb: "First byte p50 / p95 (ms)",
  adminTotal: "Total p50 / p95 (ms)",
  adminErrors: "Recent errors",
  adminErrorsEmpty: "No error recorded in the last 7 days.",
  adminWhen: "When",
  adminStatus: "Status",
  adminError: "Error",
  adminRequest: "Request",
  adminFeedback: "Visitors' feedback",
  adminFeedbackCounts: "{up} 👍 · {down} 👎 (among the newest listed)",
  adminFeedbackEmpty: "No feedback yet.",
  adminFeedbackChat: "Chat",
  adminFeedbackComment: "Comment",
  adminContact: "Messages received",
  adminContactEmpty: "No messages.",
  adminContactAll: "See all messages",
  adminIndex: "Search index",
  adminIndexDocs: "Documents",
  adminIndexPassages: "Passages",
  adminIndexMode: "Mode",
  adminIndexBuilt: "Built at",
  adminIndexSize: "Size (bytes)",
  adminIndexUnavailable: "Unavailable: {error}",
  adminLogout: "Sign out",
  adminLoginTitle: "Sign in to the dashboard",
  adminLoginIntro: "Enter this assistant's ADMIN_TOKEN. The session lasts 12 hours.",
  adminLoginToken: "Admin token",
  adminLoginSubmit: "Sign in",
  adminLoginWrong: "Wrong token.",
  adminLoginLimited: "Too many wrong tokens from this address. Try again in {minutes} min.",
  adminLoginDisabled: "Set ADMIN_TOKEN to enable the dashboard.",
  adminUnknown: "unknown",
};

/** The admin strings of `locale`. */
export function adminMessages(locale: Locale): AdminMessages {
  return locale === "en" ? enAdmin : ptBRAdmin;
}
