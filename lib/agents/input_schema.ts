/**
 * The input JSON Schema of an agent's operation (what the model fills in) and the
 * check of a tool call's arguments against it.
 *
 * Shape: an object whose properties are the path, query and header parameters by
 * name (required ones required) and, when the operation takes a JSON body, that
 * body's schema under `body` (required when the body is). No other property is
 * allowed. Schemas from OpenAPI 3.0 are normalised to JSON Schema 2020-12 by
 * {@linkcode toJsonSchema}.
 *
 * Runs in the browser too: its only dependency is `@cfworker/json-schema` (no eval,
 * ~9 KB gzipped).
 */
import { Validator } from "@cfworker/json-schema";
import type { AgentParameter, AgentRequestBody, JsonSchema } from "./types.ts";

/** Builds the tool input schema from an operation's parameters and JSON body. */
export function operationInputSchema(
  parameters: readonly AgentParameter[],
  requestBody?: AgentRequestBody,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of parameters) {
    properties[param.name] = withDescription(param.schema, param.description);
    if (param.required) required.push(param.name);
  }
  if (requestBody) {
    properties.body = withDescription(requestBody.schema, requestBody.description);
    if (requestBody.required) required.push("body");
  }
  return { type: "object", properties, required, additionalProperties: false };
}

function withDescription(schema: JsonSchema, description?: string): JsonSchema {
  return description && schema.description === undefined ? { ...schema, description } : schema;
}

/** Keywords of OpenAPI's Schema Object that are not JSON Schema validation keywords. */
const OPENAPI_ONLY = ["nullable", "discriminator", "xml", "externalDocs", "example"];

/**
 * An OpenAPI Schema Object as plain JSON Schema: `nullable: true` adds `"null"` to
 * the type, `example` becomes `examples`, boolean `exclusiveMinimum`/`Maximum`
 * (3.0) become numbers, and `readOnly` properties are dropped (a request never sends
 * them). Works on dereferenced, acyclic schemas.
 */
export function toJsonSchema(schema: unknown): JsonSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return {};
  const source = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(source)) {
    if (OPENAPI_ONLY.includes(key)) continue;
    out[key] = normaliseKeyword(key, value);
  }
  if (source.example !== undefined && out.examples === undefined) out.examples = [source.example];
  if (source.nullable === true) addNull(out);
  fixExclusive(out, source, "exclusiveMinimum", "minimum");
  fixExclusive(out, source, "exclusiveMaximum", "maximum");
  dropReadOnly(out);
  return out;
}

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_VALUES = ["items", "additionalProperties", "not", "if", "then", "else", "contains"];

function normaliseKeyword(key: string, value: unknown): unknown {
  if (SCHEMA_MAPS.includes(key) && value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub)]),
    );
  }
  if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) return value.map(toJsonSchema);
  if (SCHEMA_VALUES.includes(key) && typeof value === "object" && value !== null) {
    return Array.isArray(value) ? value.map(toJsonSchema) : toJsonSchema(value);
  }
  return value;
}

function addNull(out: JsonSchema): void {
  if (typeof out.type === "string") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  else if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}

function fixExclusive(out: JsonSchema, source: JsonSchema, key: string, bound: string): void {
  if (typeof source[key] !== "boolean") return;
  delete out[key];
  if (source[key] === true && typeof source[bound] === "number") {
    out[key] = source[bound];
    delete out[bound];
  }
}

function dropReadOnly(out: JsonSchema): void {
  const properties = out.properties as Record<string, JsonSchema> | undefined;
  if (!properties || typeof properties !== "object") return;
  const readOnly = Object.keys(properties).filter((name) => properties[name]?.readOnly === true);
  if (!readOnly.length) return;
  out.properties = Object.fromEntries(
    Object.entries(properties).filter(([name]) => !readOnly.includes(name)),
  );
  if (Array.isArray(out.required)) {
    out.required = out.required.filter((name) => !readOnly.includes(name as string));
  }
}

const validators = new WeakMap<JsonSchema, Validator>();

/** Keywords whose errors only say "something inside failed"; their children say what. */
const WRAPPERS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "false"]);

/**
 * Checks `args` against `schema`; returns readable problems, empty when valid.
 *
 * @example
 * ```ts
 * validateArguments(schema, { body: { email: 3 } });
 * // ['body.email: Instance type "number" is invalid. Expected "string".', ...]
 * ```
 */
export function validateArguments(schema: JsonSchema, args: unknown): string[] {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema as never, "2020-12", false);
    validators.set(schema, validator);
  }
  const { errors } = validator.validate(args);
  const problems = errors
    .filter((error) => !WRAPPERS.has(error.keyword))
    .map((error) => {
      const where = error.instanceLocation.replace(/^#\/?/, "").split("/").filter(Boolean)
        .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~")).join(".");
      const message = error.keyword === "additionalProperties"
        ? error.error.replace("does not match additional properties schema", "is not allowed")
        : error.error;
      return where ? `${where}: ${message}` : message;
    });
  return [...new Set(problems)];
}
