/**
 * The approval card's strings, Portuguese and English. Apart from pt_br.ts and en.ts
 * so that only the card's lazy bundle carries them (the first visit does not grow).
 */
import type { Locale } from "./mod.ts";

/** Portuguese. */
export const ptBRApproval = {
  approvalTitle: "Posso enviar esta requisição?",
  approvalIntro: "Pedido por “{agent}”. Nada é enviado sem a sua aprovação.",
  approvalDetails: "Detalhes técnicos",
  approvalContextHeader: "(diz ao site de qual conversa vem o pedido)",
  approvalEmpty: "(vazio)",
  approvalBrowser: "Ela sairá deste navegador.",
  approvalMcpTool: "Ferramenta “{tool}” do servidor MCP {server}.",
  approvalRequest: "Requisição exata",
  approvalHeaders: "Cabeçalhos",
  approvalBody: "Corpo (JSON)",
  approvalApprove: "Aprovar e enviar",
  approvalDeny: "Recusar",
  approvalEdit: "Editar",
  approvalReason: "Motivo da recusa (opcional)",
  approvalConfirmDeny: "Confirmar recusa",
  approvalEditTitle: "Edite os dados antes de enviar",
  approvalReview: "Revisar a requisição",
  approvalBackToEdit: "Voltar à edição",
  approvalEdited: "Editada por você: confira antes de aprovar.",
  approvalFixProblems: "Corrija os campos marcados.",
  approvalInvalidJson: "JSON inválido.",
  approvalNotNumber: "Digite um número.",
  approvalRequired: "obrigatório",
  approvalYes: "sim",
  approvalNo: "não",
  approvalUnset: "(não enviar)",
  approvalSending: "Aprovada. Enviando…",
  approvalSent: "Aprovada e enviada.",
  approvalDenied: "Você recusou; nada foi enviado.",
  approvalDeniedReason: "Você recusou; nada foi enviado. Motivo: {reason}",
  approvalFailed: "A requisição falhou.",
  approvalResult: "Resposta do serviço",
  approvalExpired: "Esta aprovação expirou. Peça de novo ao assistente.",
};

/** The approval card's strings (a catalog of their own, loaded with the card only). */
export type ApprovalMessages = typeof ptBRApproval;

/** English. */
export const enApproval: ApprovalMessages = {
  approvalTitle: "May I send this request?",
  approvalIntro: "Asked for by “{agent}”. Nothing is sent without your approval.",
  approvalDetails: "Technical details",
  approvalContextHeader: "(tells the site which chat the request comes from)",
  approvalEmpty: "(empty)",
  approvalBrowser: "It will be sent from this browser.",
  approvalMcpTool: "Tool “{tool}” of the MCP server {server}.",
  approvalRequest: "Exact request",
  approvalHeaders: "Headers",
  approvalBody: "Body (JSON)",
  approvalApprove: "Approve and send",
  approvalDeny: "Deny",
  approvalEdit: "Edit",
  approvalReason: "Reason for denying (optional)",
  approvalConfirmDeny: "Confirm denial",
  approvalEditTitle: "Edit the details before sending",
  approvalReview: "Review the request",
  approvalBackToEdit: "Back to editing",
  approvalEdited: "Edited by you: check it before approving.",
  approvalFixProblems: "Fix the marked fields.",
  approvalInvalidJson: "Invalid JSON.",
  approvalNotNumber: "Enter a number.",
  approvalRequired: "required",
  approvalYes: "yes",
  approvalNo: "no",
  approvalUnset: "(do not send)",
  approvalSending: "Approved. Sending…",
  approvalSent: "Approved and sent.",
  approvalDenied: "You denied it; nothing was sent.",
  approvalDeniedReason: "You denied it; nothing was sent. Reason: {reason}",
  approvalFailed: "The request failed.",
  approvalResult: "The service's answer",
  approvalExpired: "This approval expired. Ask the assistant again.",
};

/** The approval card's catalog of `locale`. */
export function approvalMessages(locale: Locale): ApprovalMessages {
  return locale === "en" ? enApproval : ptBRApproval;
}
