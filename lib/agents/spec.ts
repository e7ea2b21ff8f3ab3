/**
 * Loads an agent's OpenAPI 3 spec (a file under `static/agents/` or an https URL),
 * validates and dereferences it with `@apidevtools/swagger-parser`, and builds one
 * {@linkcode AgentOperation} per operation: the agent's tools.
 *
 * Server-only (reads files, fetches URLs). Every mistake throws
 * {@linkcode AgentConfigError} naming the agent, the operation and the fix: a spec that
 * is not valid OpenAPI 3.x, an operation without `operationId`, a tool name that
 * providers refuse (`^[a-zA-Z0-9_-]{1,64}$`), two operations with the same tool name,
 * an external or circular `$ref`, a required cookie parameter or non-JSON body, and an
 * `approval` entry for an operation the spec does not have.
 *
 * The spec's `servers` are ignored: requests go to the agent's `baseUrl`, even when
 * a server entry names another host.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import * as yaml from "js-yaml";
import {
  agentSource,
  isMcpAgent,
  operationNeedsApproval,
  validateAgentConfig,
} from "./agent_config.ts";
import { readCapped } from "@/lib/stream/read_capped.ts";
import { operationInputSchema, toJsonSchema } from "./input_schema.ts";
import { AgentConfigError } from "./types.ts";
import type {
  AgentConfig,
  AgentOperation,
  AgentParameter,
  AgentRequestBody,
  HttpMethod,
  JsonSchema,
  OpenApiAgentConfig,
  ParameterLocation,
  VisitorTexts,
} from "./types.ts";
import { type LocalizedText, localizedTextProblem } from "@/lib/i18n/localized.ts";

/** Options of {@linkcode loadAgent} and {@linkcode loadSpecDocument}. */
export interface LoadSpecOptions {
  /** The project root that holds `static/agents/` (default: this repository's root). */
  root?: URL;
  /** The fetch for spec URLs (default: global fetch). */
  fetch?: typeof fetch;
  /** Largest spec accepted, in bytes (default 5 MiB). */
  maxBytes?: number;
  /** Time allowed to fetch a spec URL (default 10 s). */
  timeoutMs?: number;
}

/** An agent with the operations built from its spec. */
export interface LoadedAgent {
  agent: AgentConfig;
  operations: AgentOperation[];
}

/** Tool names providers accept. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const DEFAULT_ROOT = new URL("../../", import.meta.url);
const SPEC_DIR = "static/agents/";

type Json = Record<string, unknown>;

/** Checks `agent`'s config, then loads, validates and builds its operations. */
export async function loadAgent(
  agent: AgentConfig,
  options: LoadSpecOptions = {},
): Promise<LoadedAgent> {
  validateAgentConfig(agent);
  // An MCP server's tools are listed at run time (lib/tools/mcp_tools.ts), not built here.
  if (isMcpAgent(agent)) return { agent, operations: [] };
  const document = await loadSpecDocument(agent, options);
  return { agent, operations: await buildOperations(agent, document) };
}

/** Reads `agent.spec` (file or https URL) and parses it as JSON or YAML. */
export async function loadSpecDocument(
  agent: OpenApiAgentConfig,
  options: LoadSpecOptions = {},
): Promise<unknown> {
  const text = /^[a-z][a-z0-9+.-]*:/i.test(agent.spec)
    ? await fetchSpec(agent, options)
    : await readSpecFile(agent, options.root ?? DEFAULT_ROOT);
  try {
    return text.trimStart().startsWith("{") ? JSON.parse(text) : yaml.load(text);
  } catch (error) {
    throw new AgentConfigError(
      `Agent "${agent.id}": the spec "${agentSource(agent)}" is not valid JSON or YAML (${
        (error as Error).message.split("\n")[0]
      }). Fix the file's syntax.`,
      agent.id,
    );
  }
}

async function readSpecFile(agent: OpenApiAgentConfig, root: URL): Promise<string> {
  const dir = new URL(SPEC_DIR, root);
  const file = new URL(agent.spec, root);
  if (!agent.spec.startsWith(SPEC_DIR) || !file.href.startsWith(dir.href)) {
    throw new AgentConfigError(
      `Agent "${agent.id}": the spec "${
        agentSource(agent)
      }" is not under ${SPEC_DIR}. Fix: put the file in ${SPEC_DIR} and write its path as "${SPEC_DIR}<name>.yaml", or use an https URL.`,
      agent.id,
    );
  }
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    throw new AgentConfigError(
      `Agent "${agent.id}": the spec file "${
        agentSource(agent)
      }" does not exist. Fix: add it or correct "spec".`,
      agent.id,
    );
  }
}

async function fetchSpec(agent: OpenApiAgentConfig, options: LoadSpecOptions): Promise<string> {
  const url = new URL(agent.spec);
  if (url.protocol !== "https:") {
    throw new AgentConfigError(
      `Agent "${agent.id}": the spec URL "${
        agentSource(agent)
      }" is not https. Fix: serve it over https or copy it to ${SPEC_DIR}.`,
      agent.id,
    );
  }
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  try {
    const response = await (options.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const { bytes, truncated } = await readCapped(response.body, maxBytes);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (truncated) throw new Error(`larger than ${maxBytes} bytes`);
    return new TextDecoder().decode(bytes);
  } catch (error) {
    throw new AgentConfigError(
      `Agent "${agent.id}": could not fetch the spec "${agentSource(agent)}" (${
        (error as Error).message
      }). Fix: check the URL, or copy the spec to ${SPEC_DIR}.`,
      agent.id,
    );
  }
}

/**
 * Validates `document` as OpenAPI 3.x, dereferences it (internal `$ref`s only: the
 * spec must be one bundled file) and builds the agent's operations.
 */
export async function buildOperations(
  agent: AgentConfig,
  document: unknown,
): Promise<AgentOperation[]> {
  checkVersion(agent, document);
  const ids = checkOperationIds(agent, document as Json);
  checkApprovalNames(agent, ids);
  const api = await validated(agent, document);
  const operations: AgentOperation[] = [];
  for (const [path, item] of Object.entries((api.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation) operations.push(buildOperation(agent, path, method, item, operation));
    }
  }
  return operations;
}

function checkVersion(agent: AgentConfig, document: unknown): void {
  const version = (document as Json | null)?.openapi;
  if (typeof version === "string" && /^3\.\d+\.\d+/.test(version)) return;
  const swagger = (document as Json | null)?.swagger;
  throw new AgentConfigError(
    `Agent "${agent.id}": the spec "${agentSource(agent)}" is not OpenAPI 3.x (${
      swagger ? `it is Swagger ${swagger}` : 'no "openapi": "3.x.y" field'
    }). Fix: ${swagger ? "convert it to OpenAPI 3" : 'start the spec with openapi: "3.1.0"'}.`,
    agent.id,
  );
}

/** Checks every operation's `operationId` before validation, for precise messages. */
function checkOperationIds(agent: AgentConfig, document: Json): Set<string> {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item?.[method] as Json | undefined;
      if (!operation || typeof operation !== "object") continue;
      const where = `${method.toUpperCase()} ${path}`;
      const id = operation.operationId;
      if (typeof id !== "string" || !id) {
        throw new AgentConfigError(
          `Agent "${agent.id}", operation ${where}: it has no operationId, which names its tool. Fix: add an operationId such as "${
            camelName(method, path)
          }".`,
          agent.id,
        );
      }
      if (!TOOL_NAME.test(id)) {
        throw new AgentConfigError(
          `Agent "${agent.id}", operation "${id}" (${where}): the operationId is not a valid tool name (${TOOL_NAME}). Fix: rename it, e.g. "${
            suggestName(id)
          }".`,
          agent.id,
          id,
        );
      }
      const other = seen.get(id);
      if (other) {
        throw new AgentConfigError(
          `Agent "${agent.id}", operation "${id}": both ${other} and ${where} use this operationId, and tool names must be unique. Fix: rename one of them.`,
          agent.id,
          id,
        );
      }
      seen.set(id, where);
    }
  }
  return new Set(seen.keys());
}

/** `get` + `/messages/{id}` → `getMessagesId`. */
function camelName(method: string, path: string): string {
  const words = path.split(/[^a-zA-Z0-9]+/).filter(Boolean);
  return suggestName(method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join(""));
}

function suggestName(text: string): string {
  const name = text.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return (name || "operation").slice(0, 64);
}

function checkApprovalNames(agent: AgentConfig, ids: Set<string>): void {
  for (const [id, rule] of Object.entries(agent.approval ?? {})) {
    if (!ids.has(id)) {
      throw new AgentConfigError(
        `Agent "${agent.id}", operation "${id}": "approval" names it, but the spec has no such operationId. Fix: use one of ${
          [...ids].map((name) => `"${name}"`).join(", ") || "(none)"
        }.`,
        agent.id,
        id,
      );
    }
    if (rule !== "always" && rule !== "never") {
      throw new AgentConfigError(
        `Agent "${agent.id}", operation "${id}": the approval rule is "${rule}". Fix: use "always" or "never".`,
        agent.id,
        id,
      );
    }
  }
}

async function validated(agent: AgentConfig, document: unknown): Promise<Json> {
  try {
    // No external resolution: a spec must not make the server read files or URLs.
    return await SwaggerParser.validate(structuredClone(document) as never, {
      resolve: { external: false },
      dereference: { circular: false },
    }) as unknown as Json;
  } catch (error) {
    const message = (error as Error).message;
    const fix = /circular/i.test(message)
      ? "make the recursive schemas non-recursive (tool inputs must be finite)"
      : "correct the spec (an editor such as the Swagger Editor shows where)";
    throw new AgentConfigError(
      `Agent "${agent.id}": the spec "${
        agentSource(agent)
      }" is not a valid OpenAPI 3 document: ${message.trim()}\nFix: ${fix}.`,
      agent.id,
    );
  }
}

function buildOperation(
  agent: AgentConfig,
  path: string,
  method: (typeof METHODS)[number],
  item: Json,
  operation: Json,
): AgentOperation {
  const id = operation.operationId as string;
  const fault = (problem: string, fix: string) =>
    new AgentConfigError(
      `Agent "${agent.id}", operation "${id}" (${method.toUpperCase()} ${path}): ${problem}. Fix: ${fix}.`,
      agent.id,
      id,
    );
  const external = findRef(operation) ?? findRef(item.parameters);
  if (external) {
    throw fault(
      `it uses the external reference "${external}"`,
      "bundle the spec into one file (e.g. `redocly bundle`)",
    );
  }
  const parameters = collectParameters(item, operation, fault);
  const requestBody = jsonBody(operation.requestBody as Json | undefined, fault);
  const all = [...parameters.path, ...parameters.query, ...parameters.header];
  checkNames(all, requestBody, fault);
  const upper = method.toUpperCase() as HttpMethod;
  return {
    agentId: agent.id,
    toolName: id,
    method: upper,
    pathTemplate: path,
    ...(typeof operation.summary === "string" ? { summary: operation.summary } : {}),
    ...(typeof operation.description === "string" ? { description: operation.description } : {}),
    parameters,
    ...(requestBody ? { requestBody } : {}),
    inputSchema: operationInputSchema(all, requestBody),
    needsApproval: operationNeedsApproval({ method: upper, toolName: id }, agent),
    ...visitorTexts(operation["x-visitor"], fault),
  };
}

type Fault = (problem: string, fix: string) => AgentConfigError;

/** A `$ref` left after dereferencing: an external one. */
function findRef(value: unknown): string | undefined {
  if (!value || typeof value !== "object") return undefined;
  if (!Array.isArray(value) && typeof (value as Json).$ref === "string") {
    return (value as Json).$ref as string;
  }
  for (const child of Object.values(value)) {
    const found = findRef(child);
    if (found) return found;
  }
  return undefined;
}

/** Headers OpenAPI says are ignored as parameters (they are set by the request itself). */
const IGNORED_HEADERS = ["accept", "content-type", "authorization"];

function collectParameters(item: Json, operation: Json, fault: Fault) {
  const byKey = new Map<string, Json>();
  // Operation-level parameters override path-level ones with the same name and location.
  for (const param of [...asList(item.parameters), ...asList(operation.parameters)]) {
    byKey.set(`${param.in}:${param.name}`, param);
  }
  const parameters: Record<ParameterLocation, AgentParameter[]> = {
    path: [],
    query: [],
    header: [],
  };
  for (const param of byKey.values()) {
    const name = String(param.name);
    const location = param.in as string;
    if (location === "cookie") {
      if (param.required) {
        throw fault(`the cookie parameter "${name}" is required`, "send it as a header instead");
      }
      continue;
    }
    if (location === "header" && IGNORED_HEADERS.includes(name.toLowerCase())) continue;
    parameters[location as ParameterLocation].push({
      name,
      in: location as ParameterLocation,
      required: location === "path" || param.required === true,
      ...(typeof param.description === "string" ? { description: param.description } : {}),
      schema: toJsonSchema(param.schema ?? firstContentSchema(param.content)),
    });
  }
  return parameters;
}

function asList(value: unknown): Json[] {
  return Array.isArray(value) ? value as Json[] : [];
}

function firstContentSchema(content: unknown): unknown {
  const media = Object.values((content ?? {}) as Record<string, Json>)[0];
  return media?.schema ?? { type: "string" };
}

const JSON_MEDIA = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

function jsonBody(body: Json | undefined, fault: Fault): AgentRequestBody | undefined {
  if (!body) return undefined;
  const content = (body.content ?? {}) as Record<string, Json>;
  const media = Object.keys(content).find((type) => JSON_MEDIA.test(type));
  if (!media) {
    if (!body.required) return undefined;
    throw fault(
      `its required request body is not JSON (${Object.keys(content).join(", ") || "no content"})`,
      'offer an "application/json" body',
    );
  }
  return {
    required: body.required === true,
    ...(typeof body.description === "string" ? { description: body.description } : {}),
    schema: toJsonSchema(content[media].schema ?? {}) as JsonSchema,
  };
}

function checkNames(
  parameters: AgentParameter[],
  requestBody: AgentRequestBody | undefined,
  fault: Fault,
): void {
  const seen = new Map<string, string>();
  for (const param of parameters) {
    const other = seen.get(param.name);
    if (other) {
      throw fault(
        `the ${other} and ${param.in} parameters are both named "${param.name}", and tool arguments are flat`,
        "rename one of them",
      );
    }
    seen.set(param.name, param.in);
  }
  if (requestBody && seen.has("body")) {
    throw fault(
      `the ${seen.get("body")} parameter "body" clashes with the JSON body, passed as "body"`,
      "rename the parameter",
    );
  }
}

/**
 * Throws when two tools of the chat would share a name: across agents, or with
 * `reserved` names (the chat's own tools, e.g. "search").
 */
export function checkToolNames(agents: readonly LoadedAgent[], reserved: readonly string[] = []) {
  const owners = new Map<string, string>(reserved.map((name) => [name, "the chat itself"]));
  for (const { agent, operations } of agents) {
    for (const operation of operations) {
      const owner = owners.get(operation.toolName);
      if (owner) {
        throw new AgentConfigError(
          `Agent "${agent.id}", operation "${operation.toolName}": ${
            owner === "the chat itself" ? owner : `agent "${owner}"`
          } already has a tool with this name. Fix: rename the operationId in one of the specs.`,
          agent.id,
          operation.toolName,
        );
      }
      owners.set(operation.toolName, agent.id);
    }
  }
}

/** `x-visitor` of an operation, checked: a wrong text stops the build like any spec fault. */
function visitorTexts(
  raw: unknown,
  fault: (problem: string, fix: string) => Error,
): { visitor?: VisitorTexts } {
  if (raw === undefined) return {};
  const fix = 'write { "summary": { "pt-BR": "…", "en": "…" }, "labels": { "email": {…} } }';
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw fault("its x-visitor is not an object", fix);
  }
  const { summary, labels } = raw as { summary?: unknown; labels?: unknown };
  const texts: VisitorTexts = {};
  if (summary !== undefined) {
    const problem = localizedTextProblem(summary, "x-visitor.summary");
    if (problem) throw fault(problem, fix);
    texts.summary = summary as LocalizedText;
  }
  if (labels !== undefined) {
    if (!labels || typeof labels !== "object" || Array.isArray(labels)) {
      throw fault("its x-visitor.labels is not an object", fix);
    }
    for (const [name, label] of Object.entries(labels)) {
      const problem = localizedTextProblem(label, `x-visitor.labels["${name}"]`);
      if (problem) throw fault(problem, fix);
    }
    texts.labels = labels as Record<string, LocalizedText>;
  }
  return { visitor: texts };
}
