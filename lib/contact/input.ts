/**
 * Checks what `POST /api/contact` receives: the JSON body `{ name, email, message }`
 * (the constraints static/agents/contact.json declares) and the optional
 * `X-Assistant-Context` header an agent call carries.
 */
import type { AssistantContext } from "@/lib/agents/request.ts";
import { HttpError } from "@/lib/http/errors.ts";

/** A message to the owner, trimmed and checked. */
export interface ContactInput {
  name: string;
  email: string;
  message: string;
}

/** Largest accepted body: 4000 characters of message, even if every one is escaped. */
export const MAX_CONTACT_BODY_BYTES = 32 * 1024;

/** Length limits, in characters (code points, as JSON Schema's maxLength counts). */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 4000 } as const;

// One @, no spaces or angle brackets, a dot in the domain: plausible, not RFC 5322.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;
const FIELDS = ["name", "email", "message"] as const;

/** The checked input; 400 `invalid_request` naming the first field at fault. */
export function parseContactInput(body: unknown): ContactInput {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new HttpError("invalid_request", 'Send a JSON object { "name", "email", "message" }.');
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) {
    throw new HttpError(
      "invalid_request",
      `Unknown field "${unknown.slice(0, 40)}": send only "name", "email" and "message".`,
    );
  }
  const name = text(record, "name");
  const email = text(record, "email");
  if (!EMAIL.test(email)) {
    throw new HttpError(
      "invalid_request",
      `Invalid "email": "${email.slice(0, 60)}" is not an address like name@example.com.`,
    );
  }
  return { name, email, message: text(record, "message") };
}

/** The trimmed string field `field`, 1 to its limit characters. */
function text(record: Record<string, unknown>, field: (typeof FIELDS)[number]): string {
  const value = record[field];
  const max = CONTACT_LIMITS[field];
  if (typeof value !== "string") {
    throw new HttpError(
      "invalid_request",
      `Invalid "${field}": ${
        value === undefined ? "it is missing" : `got ${value === null ? "null" : typeof value}`
      }; send a string of 1 to ${max} characters.`,
    );
  }
  const trimmed = value.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > max) {
    throw new HttpError(
      "invalid_request",
      `Invalid "${field}": ${
        length ? `${length} characters` : "it is empty"
      }; send 1 to ${max} characters.`,
    );
  }
  return trimmed;
}

const CONTEXT_FIELD = /^[\x20-\x7e]{1,128}$/;

/**
 * The `X-Assistant-Context` header's `{ chatId, locale, visitor }`, or undefined when
 * it is absent or not exactly that (it is metadata: a bad one is ignored, not refused).
 */
export function parseAssistantContext(header: string | null): AssistantContext | undefined {
  if (!header || header.length > 1024) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
  const { chatId, locale, visitor, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length) return undefined;
  for (const field of [chatId, locale, visitor]) {
    if (typeof field !== "string" || !CONTEXT_FIELD.test(field)) return undefined;
  }
  return { chatId, locale, visitor } as AssistantContext;
}
