/** Texts of /admin/gaps and of the site team's answer pages, per language. */
import type { Locale } from "./mod.ts";

const ptBR = {
  title: "Perguntas sem resposta",
  intro:
    "Perguntas que o assistente não soube responder (o site não cobre), que o visitante interrompeu ou pediu de novo, que receberam avaliação negativa ou depois das quais o visitante foi para uma pergunta relacionada, agrupadas por semelhança. Escreva uma resposta, ou indique a página do site que já responde: a busca passa a usá-la na hora. O que não é assunto do site pode ser dispensado.",
  csv: "Exportar CSV",
  empty: "Nenhuma pergunta sem resposta por enquanto.",
  question: "Pergunta",
  count: "Vezes",
  last: "Última",
  reasons: "Motivos",
  chats: "Conversas",
  reason: {
    "not-covered": "não coberta",
    stopped: "interrompida",
    "thumbs-down": "avaliação negativa",
    retried: "resposta pedida de novo",
    related: "foi para uma pergunta relacionada",
  },
  followed: "Seguiram para",
  answerThis: "Responder",
  pointThis: "Responder com uma página do site",
  page: "Página que responde (título ou pergunta)",
  candidates: "Páginas que a busca encontrou para esta pergunta",
  otherPage: "Outra página (título ou pergunta):",
  open: "abrir",
  newTab: "em nova aba",
  pageHelp:
    "A busca passa a levar quem perguntar com essas palavras a essa página, que é citada como está no site.",
  point: "Responder com esta página",
  answeredWith: "Respondida com",
  answeredBy: "Respondida por",
  askedSince: "perguntada {n}× depois dessa resposta: ela não está servindo a quem pergunta",
  answeredGroups: "Já respondidas",
  answeredGroupsIntro:
    "Perguntas que uma resposta da equipe atende, e que ninguém fez de novo sem ser atendido desde então.",
  pageGone:
    "Esta página não está mais no índice do site: a pergunta não é mais respondida com ela. Remova e responda de novo.",
  answerText: "Resposta",
  lang: "Idioma",
  save: "Salvar resposta",
  remove: "Remover",
  answers: "Respostas da equipe do site",
  answersEmpty: "Nenhuma resposta ainda.",
  edit: "Editar",
  view: "Ver página",
  saved: "Resposta salva e já usada pela busca.",
  removed: "Resposta removida.",
  teamAnswer: "Resposta da equipe do site",
  updated: "Atualizada em",
  range: "{first}–{last} de {total}",
  newer: "← Mais recentes",
  older: "Mais antigas →",
  notSaved: "Não foi salvo",
  storeDown:
    "O armazenamento não respondeu e nada foi salvo. O que você escreveu está abaixo: envie de novo.",
  fixBelow: "Corrija abaixo e envie de novo:",
  backToList: "Voltar à lista",
  filter: "Filtrar por palavras das perguntas",
  filterButton: "Filtrar",
  clearFilter: "Mostrar todas",
  noneMatch: "Nenhuma pergunta em aberto com essas palavras.",
  dismiss: "Dispensar: não é assunto do site",
  restore: "Restaurar às abertas",
  dismissedGroups: "Dispensadas",
  dismissedGroupsIntro:
    "Perguntas que a equipe dispensou por não serem assunto do site. As parecidas que chegarem depois entram aqui, não nas abertas.",
  dismissedOn: "Dispensada em",
  askedSinceDismissed: "perguntada {n}× depois",
  dismissed: "Grupo dispensado: perguntas parecidas não aparecem mais entre as abertas.",
  restored: "Grupo restaurado às abertas.",
  /** What the owner must correct (lib/store/owner_answers.ts `OwnerAnswerProblem`). */
  problem: {
    question: "Escreva a pergunta com 1 a {max} caracteres.",
    answer: "Escreva a resposta com 1 a {max} caracteres.",
    lang: "Escolha o idioma da resposta: português ou inglês.",
    full: "Já há {max} respostas: remova uma antes.",
    pageTitle: "Escreva o título ou a pergunta da página com 1 a {max} caracteres.",
    pageUnmatched:
      "Nada no site corresponde a “{words}”: escreva o título ou a pergunta da página.",
    pageGone:
      "Essa página não está mais no índice do site: escolha outra, ou escreva o título dela.",
    dismissalsFull: "Já há {max} grupos dispensados: restaure um antes.",
    answerRemoved:
      "Essa resposta foi removida enquanto você editava: envie de novo para salvá-la como nova.",
  },
};

const en: typeof ptBR = {
  title: "Unanswered questions",
  intro:
    "Questions the assistant could not answer (the site does not cover them), that the visitor stopped or asked again, that got a thumbs-down or after which the visitor went on to a related question, grouped by similarity. Write an answer, or name the page of the site that already answers: the search uses it at once. What is no subject of the site can be dismissed.",
  csv: "Export CSV",
  empty: "No unanswered questions so far.",
  question: "Question",
  count: "Times",
  last: "Last",
  reasons: "Reasons",
  chats: "Chats",
  reason: {
    "not-covered": "not covered",
    stopped: "stopped",
    "thumbs-down": "thumbs-down",
    retried: "asked again",
    related: "went on to a related question",
  },
  followed: "Went on to",
  answerThis: "Answer",
  pointThis: "Answer with a page of the site",
  page: "Page that answers it (title or question)",
  candidates: "Pages the search found for this question",
  otherPage: "Another page (title or question):",
  open: "open",
  newTab: "in a new tab",
  pageHelp:
    "The search then takes whoever asks in these words to that page, cited as it is on the site.",
  point: "Answer with this page",
  answeredWith: "Answered with",
  answeredBy: "Answered by",
  askedSince: "asked {n}× after that answer: it does not serve the visitors who ask",
  answeredGroups: "Answered already",
  answeredGroupsIntro:
    "Questions a team answer serves, that nobody has asked again since without being served.",
  pageGone:
    "This page is no longer in the site's index: the question is no longer answered with it. Remove it and answer again.",
  answerText: "Answer",
  lang: "Language",
  save: "Save answer",
  remove: "Remove",
  answers: "Answers by the site team",
  answersEmpty: "No answers yet.",
  edit: "Edit",
  view: "View page",
  saved: "Answer saved; the search uses it already.",
  removed: "Answer removed.",
  teamAnswer: "Answer by the site team",
  updated: "Updated on",
  range: "{first}–{last} of {total}",
  newer: "← Newer",
  older: "Older →",
  notSaved: "Not saved",
  storeDown:
    "The store did not respond and nothing was saved. What you wrote is below: send it again.",
  fixBelow: "Correct it below and send it again:",
  backToList: "Back to the list",
  filter: "Filter by words of the questions",
  filterButton: "Filter",
  clearFilter: "Show all",
  noneMatch: "No open question with these words.",
  dismiss: "Dismiss: not a subject of the site",
  restore: "Restore to the open ones",
  dismissedGroups: "Dismissed",
  dismissedGroupsIntro:
    "Questions the team dismissed as no subject of the site. Alike questions asked later land here, not among the open ones.",
  dismissedOn: "Dismissed on",
  askedSinceDismissed: "asked {n}× since",
  dismissed: "Group dismissed: alike questions no longer show among the open ones.",
  restored: "Group restored to the open ones.",
  problem: {
    question: "Write the question in 1 to {max} characters.",
    answer: "Write the answer in 1 to {max} characters.",
    lang: "Pick the answer's language: Portuguese or English.",
    full: "There are {max} answers already: remove one first.",
    pageTitle: "Write the title or the question of the page in 1 to {max} characters.",
    pageUnmatched:
      "Nothing on the site matches “{words}”: write the title or the question of the page.",
    pageGone: "That page is not in the site's index any more: pick another, or write its title.",
    dismissalsFull: "There are {max} dismissed groups already: restore one first.",
    answerRemoved:
      "That answer was removed while you edited it: send it again to save it as a new one.",
  },
};

/** The texts of the gap pages. */
export type GapMessages = typeof ptBR;

/** The gap pages' texts in `locale`. */
export function gapMessages(locale: Locale): GapMessages {
  return locale === "en" ? en : ptBR;
}
