/**
 * The offline model's part of the built-in contact agent: it recognises a visitor's
 * request to message the site owner ("manda um recado pro dono do site dizendo que…",
 * "leave a message for the site owner saying…"), reads the name, email and message
 * from the visitor's words, and words the one-sentence answer once the call's result
 * (or the visitor's denial) is back.
 *
 * No generation: fixed phrases in Portuguese and English, extraction by scanning.
 */
import type { AnswerLang } from "./extractive.ts";

/** The contact agent's operation the offline model proposes (static/agents/contact.json). */
export const CONTACT_TOOL_NAME = "sendMessageToOwner";

/** What a contact request says, each field null when the visitor did not give it. */
export interface ContactRequest {
  name: string | null;
  email: string | null;
  message: string | null;
}

const SEND_VERBS = new Set([
  "manda",
  "mande",
  "mandar",
  "envia",
  "envie",
  "enviar",
  "deixa",
  "deixe",
  "deixar",
  "passa",
  "passe",
  "passar",
  "escreve",
  "escreva",
  "escrever",
  "send",
  "leave",
  "pass",
  "write",
  "drop",
  "give",
]);
const TELL_VERBS = new Set(["diz", "diga", "dizer", "avisa", "avise", "avisar", "tell"]);
const NOTES = new Set(["recado", "mensagem", "bilhete", "message", "note"]);
const OWNERS = new Set([
  "dono",
  "dona",
  "autor",
  "autora",
  "responsável",
  "owner",
  "author",
  "webmaster",
]);

function words(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean);
}

/**
 * Whether `text` asks to pass a message to the site owner: a note and a verb of
 * sending, or a verb of telling, together with the owner.
 */
export function isContactRequest(text: string): boolean {
  const found = words(text);
  if (!found.some((w) => OWNERS.has(w))) return false;
  if (found.some((w) => SEND_VERBS.has(w)) && found.some((w) => NOTES.has(w))) return true;
  // "tell the owner that…", but not "tell me who the owner is" / "me diz quem é o dono".
  return found.some((w, i) =>
    TELL_VERBS.has(w) && !ASKER.has(found[i + 1]) && found[i - 1] !== "me" &&
    found.slice(i + 1, i + 6).some((next) => OWNERS.has(next))
  );
}

const ASKER = new Set(["me", "us", "nos"]);

/** Characters an email address may hold around its `@` (a practical subset). */
const EMAIL_CHAR = /[\p{L}\p{N}._%+-]/u;

/** The first email address of `text`, found by scanning out from each `@` (linear). */
export function findEmail(text: string): { email: string; index: number } | null {
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > 0 && EMAIL_CHAR.test(text[start - 1])) start--;
    let end = at + 1;
    while (end < text.length && EMAIL_CHAR.test(text[end])) end++;
    let last = end;
    while (last > at && text[last - 1] === ".") last--;
    const email = text.slice(start, last);
    if (start < at && /^[^@]+@[^@.]+(\.[^@.]+)+$/u.test(email)) return { email, index: start };
    at = end - 1;
  }
  return null;
}

const NAME_WORD = String.raw`\p{Lu}[\p{L}'’-]*`;
const MORE_NAMES = String.raw`(?:[ \t]+(?:d[aeo]s? )?${NAME_WORD}){0,3}`;
/** Phrases that surely introduce a name: the name's first word may be lower-case. */
const STRONG_NAME = new RegExp(
  String
    .raw`(?:[Mm]eu nome é|[Mm]eu nome e|[Mm]e chamo|[Mm]y name is|[Mm]y name's)[ \t]+(\p{L}[\p{L}'’-]*${MORE_NAMES})`,
  "u",
);
/** Weaker phrases: only a capitalised name counts ("I am happy" is no name). */
const WEAK_NAME = new RegExp(
  String
    .raw`(?:^|[^\p{L}])(?:[Ss]ou [ao]|[Ss]ou|[Aa]qui é [ao]|[Aa]qui é|I am|I'm|I’m|[Tt]his is)[ \t]+(${NAME_WORD}${MORE_NAMES})`,
  "u",
);

/** The visitor's name as they introduce themselves, or null. */
export function findName(text: string): string | null {
  const found = STRONG_NAME.exec(text)?.[1] ?? WEAK_NAME.exec(text)?.[1];
  return found ? capitalise(found.trim()) : null;
}

/** Where the message begins: after "dizendo que", "saying", "…owner that", a colon… */
const MESSAGE_START = new RegExp(
  [
    String
      .raw`\b(?:dizendo|falando|avisando|contando|saying|telling (?:him|her|them))(?:[ \t]+(?:que|that))?[ \t]*[:,]?[ \t]+`,
    String.raw`\b(?:com a mensagem|com o recado|with the message|to say(?: that)?)[ \t]*:?[ \t]+`,
    String
      .raw`(?:dono|dona|autora?|responsável|owner|author|webmaster)(?:[ \t]+(?:do|da|of the|of this)[ \t]+(?:site|blog|página|page|website))?[ \t]*(?:que|that|:)[ \t]+`,
  ].join("|"),
  "iu",
);
/**
 * Where the message ends: the visitor's own details, or the end of the line. Literal
 * alternatives only: a leading `[ \t]*` would rescan every run of blanks (quadratic).
 */
const MESSAGE_END =
  /meu nome|me chamo|meu e-?mail|o e-?mail|my name|my e-?mail|you can reach me|pode me responder|assinad[oa]|\n/iu;

/** The message to pass on, in the visitor's words; null when none is given. */
export function findMessage(text: string): string | null {
  const start = MESSAGE_START.exec(text);
  let rest: string;
  if (start) rest = text.slice(start.index + start[0].length);
  else {
    const quoted = /["“]([^"”\n]{1,4000})["”]/u.exec(text);
    if (!quoted) return null;
    rest = quoted[1];
  }
  const end = MESSAGE_END.exec(rest);
  if (end) rest = rest.slice(0, end.index);
  const email = findEmail(rest);
  if (email) rest = rest.slice(0, email.index);
  // Index scans, not `/[\s,;:]+$/` (which retries from every blank of a long run).
  let message = trimTail(rest);
  const connector = /[ \t](?:e|and)$/iu.exec(message.slice(-4));
  if (connector) message = trimTail(message.slice(0, message.length - 4 + connector.index));
  message = message.trim();
  return message ? capitalise(message) : null;
}

/** `text` without trailing blanks and `,;:.` (an index scan). */
function trimTail(text: string): string {
  let end = text.length;
  while (end > 0 && /[\s,;:.]/u.test(text[end - 1])) end--;
  return text.slice(0, end);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Reads the name, email and message of a contact request. */
export function readContactRequest(text: string): ContactRequest {
  return {
    name: findName(text),
    email: findEmail(text)?.email ?? null,
    message: findMessage(text),
  };
}

const ASK: Record<AnswerLang, { lead: string; fields: Record<keyof ContactRequest, string> }> = {
  pt: {
    lead: "Posso mandar o recado ao dono do site, mas preciso de",
    fields: { name: "seu nome", email: "seu email", message: "o que você quer dizer" },
  },
  en: {
    lead: "I can send your message to the site owner, but I need",
    fields: { name: "your name", email: "your email address", message: "what you want to say" },
  },
};

/** Asks for what `request` lacks, in the visitor's language. */
export function askForMissing(request: ContactRequest, lang: AnswerLang): string {
  const missing = (["name", "email", "message"] as const).filter((field) => !request[field])
    .map((field) => ASK[lang].fields[field]);
  const and = lang === "pt" ? " e " : " and ";
  const list = missing.length > 1
    ? `${missing.slice(0, -1).join(", ")}${and}${missing.at(-1)}`
    : missing[0];
  return `${ASK[lang].lead} ${list}.`;
}

/** Whether `text` is the offline model's own question for missing details. */
export function isAskForMissing(text: string): boolean {
  return Object.values(ASK).some(({ lead }) => text.startsWith(lead));
}

/** The outcome of the contact call as the model reads it. */
export type ContactOutcome =
  | { kind: "sent" }
  | { kind: "failed"; message: string }
  | { kind: "denied"; reason?: string };

/** The one-sentence answer once the contact call's outcome is known. */
export function contactAnswer(outcome: ContactOutcome, lang: AnswerLang): string {
  const pt = lang === "pt";
  if (outcome.kind === "sent") {
    return pt
      ? "Recado enviado: o dono do site vai lê-lo e responder no seu email."
      : "Message sent: the site owner will read it and answer by email.";
  }
  if (outcome.kind === "failed") {
    const message = outcome.message.trim().replace(/[.\s]+$/u, "") || "erro desconhecido";
    return pt ? `O recado não foi enviado: ${message}.` : `The message was not sent: ${message}.`;
  }
  const reason = outcome.reason?.trim().replace(/[.\s]+$/u, "");
  if (pt) return `O recado não foi enviado, porque você recusou${reason ? ` (${reason})` : ""}.`;
  return `The message was not sent, because you declined${reason ? ` (${reason})` : ""}.`;
}

/**
 * The outcome in a tool result's output: wrapped (`{ type: "json", value }`,
 * `error-text`, `execution-denied`) or plain, `{ data }` or `{ error: { message } }`.
 */
export function contactOutcome(output: unknown): ContactOutcome {
  if (isObject(output) && output.type === "execution-denied") {
    return {
      kind: "denied",
      ...(typeof output.reason === "string" ? { reason: output.reason } : {}),
    };
  }
  let value: unknown = output;
  if (isObject(output) && typeof output.type === "string" && "value" in output) {
    if (output.type === "error-text") return { kind: "failed", message: String(output.value) };
    value = output.value;
  }
  if (isObject(value) && isObject(value.error)) {
    return { kind: "failed", message: String(value.error.message ?? "") };
  }
  if (isObject(value) && "data" in value) return { kind: "sent" };
  return { kind: "failed", message: typeof value === "string" ? value : "" };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object";
}
