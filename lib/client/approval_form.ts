/**
 * The edit form of an approval card, derived from the operation's input schema:
 * one field per property (strings, numbers, booleans, enums; the `body` object's
 * properties one level down; anything else as JSON text), and the way back from
 * the form's text to arguments, checked with lib/agents/input_schema.ts.
 */
import { validateArguments } from "@/lib/agents/input_schema.ts";
import type { JsonSchema } from "@/lib/agents/types.ts";

/** One input of the form; `key` is the dotted path (`box`, `body.email`). */
export interface FormField {
  key: string;
  path: string[];
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "json" | "text";
  required: boolean;
  description?: string;
  options?: string[];
  /** The schema's `format` ("email", "uri"…): the input type a person expects. */
  format?: string;
}

/** The form's values by field key: text, or the chosen option. */
export type FormValues = Record<string, string>;

/** What reading the form gave: the arguments, or problems by field key ("" = the whole form). */
export type FormResult =
  | { input: Record<string, unknown> }
  | { problems: Record<string, string[]> };

function kindOf(schema: JsonSchema): FormField["kind"] {
  const types = Array.isArray(schema.type)
    ? schema.type.filter((t) => t !== "null")
    : [schema.type];
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")) return "enum";
  const type = types.length === 1 ? types[0] : undefined;
  // A long text (a message) gets a text area; short ones a one-line input. A formatted string
  // (an e-mail, a URL, a date) is one line whatever its length limit: RFC 5321 allows 254.
  if (type === "string") {
    const long = typeof schema.maxLength === "number" && schema.maxLength > 200;
    return long && typeof schema.format !== "string" ? "text" : "string";
  }
  if (type === "number" || type === "integer" || type === "boolean") return type;
  return "json";
}

/** The fields of an operation's input schema. */
export function formFields(schema: JsonSchema): FormField[] {
  const fields: FormField[] = [];
  const walk = (s: JsonSchema, path: string[], nested: boolean) => {
    const props = (s.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((s.required ?? []) as string[]);
    for (const [name, sub] of Object.entries(props)) {
      const at = [...path, name];
      if (!nested && name === "body" && sub.type === "object" && sub.properties) {
        walk(sub, at, true);
        continue;
      }
      const kind = kindOf(sub);
      fields.push({
        key: at.join("."),
        path: at,
        kind,
        required: required.has(name),
        ...(typeof sub.description === "string" ? { description: sub.description } : {}),
        ...(kind === "enum" ? { options: sub.enum as string[] } : {}),
        ...(typeof sub.format === "string" ? { format: sub.format } : {}),
      });
    }
  };
  walk(schema, [], false);
  return fields;
}

function valueAt(input: unknown, path: string[]): unknown {
  return path.reduce<unknown>(
    (v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
    input,
  );
}

/** The form's starting values from the arguments the model proposed. */
export function formValues(fields: FormField[], input: unknown): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = valueAt(input, f.path);
    values[f.key] = v === undefined || v === null
      ? ""
      : f.kind === "json"
      ? JSON.stringify(v, null, 2)
      : String(v);
  }
  return values;
}

/** Reads the form into arguments and validates them against `schema`. */
export function readForm(
  schema: JsonSchema,
  fields: FormField[],
  values: FormValues,
  messages: { notNumber: string; invalidJson: string },
): FormResult {
  const input: Record<string, unknown> = {};
  const problems: Record<string, string[]> = {};
  const add = (key: string, problem: string) => (problems[key] ??= []).push(problem);
  for (const f of fields) {
    const text = values[f.key] ?? "";
    if (text === "" && !(f.kind === "string" || f.kind === "text") || text === "" && !f.required) {
      continue;
    }
    let value: unknown = text;
    if (f.kind === "number" || f.kind === "integer") {
      value = Number(text);
      if (!Number.isFinite(value as number)) add(f.key, messages.notNumber);
    } else if (f.kind === "boolean") value = text === "true";
    else if (f.kind === "json") {
      try {
        value = JSON.parse(text);
      } catch {
        add(f.key, messages.invalidJson);
      }
    }
    let target = input;
    for (const k of f.path.slice(0, -1)) target = (target[k] ??= {}) as Record<string, unknown>;
    target[f.path.at(-1)!] = value;
  }
  if (Object.keys(problems).length) return { problems };
  const keys = new Set(fields.map((f) => f.key));
  for (const problem of validateArguments(schema, input)) {
    const m = /^([^:\s]+): (.*)$/.exec(problem);
    const key = m && keys.has(m[1]) ? m[1] : "";
    add(key, key ? m![2] : problem);
  }
  return Object.keys(problems).length ? { problems } : { input };
}
