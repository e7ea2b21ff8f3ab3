/**
 * Turns a tool call of an agent into the exact HTTP request, and that request into
 * the form shown on the approval card.
 *
 * Browser-safe: no Deno APIs and no npm imports (types only), so a browser-run agent
 * and the approval island build the same request the server would.
 *
 * Rules of {@linkcode buildRequest}:
 * - path parameters are substituted with `encodeURIComponent`, so `/`, `\`, `%` and `?`
 *   in a value are data, never structure; a value that is empty, `.` or `..` is refused
 *   (URL parsers resolve `..` even when percent-encoded); a missing one is an error and
 *   nothing is built;
 * - a path or query value (or argument name) that is not well-formed Unicode (a lone
 *   UTF-16 surrogate, which `encodeURIComponent` cannot encode) is an error, never a throw:
 *   it comes from model output, and a throw would fail the whole turn;
 * - the final URL must stay under the baseUrl's origin and path prefix;
 * - GET and HEAD send every remaining argument as a query parameter: null and undefined
 *   are dropped, arrays repeat the name (`a=1&a=2`), objects are sent as JSON strings;
 * - other methods send declared query parameters in the query and the `body` argument
 *   as JSON (`content-type: application/json`); any other argument is an error;
 * - header parameters become headers (objects as JSON); the agent's configured headers
 *   win over them, and `X-Assistant-Context` carries `{ chatId, locale, visitor }` as
 *   JSON (non-ASCII escaped) when metadata is given;
 * - header values must be printable ASCII (no CR/LF injection, no unicode).
 */
import type { RequestDescription } from "@/lib/protocol/approval.ts";
import type { AgentOperation } from "./types.ts";

/** The visitor context sent to agents; `visitor` is already a hashed id. */
export interface AssistantContext {
  chatId: string;
  locale: string;
  visitor: string;
}

/** Where and how {@linkcode buildRequest} sends an operation. */
export interface RequestTarget {
  baseUrl: string;
  /** The agent's configured headers, env references already resolved. */
  headers?: Record<string, string>;
  metadata?: AssistantContext;
}

/** A built HTTP request, exactly as it will be sent. */
export interface AgentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The JSON text sent as the body. */
  body?: string;
}

/** Why a request could not be built. */
export interface RequestBuildError {
  code:
    | "invalid_base_url"
    | "missing_parameter"
    | "invalid_parameter"
    | "unknown_argument"
    | "outside_base_url";
  message: string;
  /** The argument at fault, when there is one. */
  parameter?: string;
}

/** The result of {@linkcode buildRequest}. */
export type BuildRequestResult = { request: AgentRequest } | { error: RequestBuildError };

/** The metadata header's name. */
export const CONTEXT_HEADER = "X-Assistant-Context";

/** What redacted header values show. */
export const REDACTED = "••••";

type Args = Record<string, unknown>;

/**
 * Builds the HTTP request for `operation` called with `args`.
 *
 * @example
 * ```ts
 * const built = buildRequest(getMessage, { id: "a/b" }, { baseUrl: "https://api.example.com/v1" });
 * if ("request" in built) built.request.url; // "https://api.example.com/v1/messages/a%2Fb"
 * ```
 */
export function buildRequest(
  operation: AgentOperation,
  args: Args,
  target: RequestTarget,
): BuildRequestResult {
  const base = parseBase(target.baseUrl);
  if (!base) {
    return fail("invalid_base_url", `The base URL "${target.baseUrl}" is not an http(s) URL.`);
  }
  try {
    if (operation.mcp) return { request: mcpCallRequest(operation, args, base, target) };
    const path = substitutePath(operation, args);
    const query = queryPairs(operation, args);
    const url = `${base.href.replace(/\/+$/, "")}${path}${query}`;
    checkUnderBase(url, base);
    const headers = buildHeaders(operation, args, target);
    const body = bodyOf(operation, args);
    if (body !== undefined) setHeader(headers, "content-type", "application/json");
    return {
      request: { method: operation.method, url, headers, ...(body !== undefined ? { body } : {}) },
    };
  } catch (error) {
    if (error instanceof BuildFailure) return { error: error.detail };
    throw error;
  }
}

/**
 * The JSON-RPC id of the `tools/call` message: the MCP client opens each call with a new
 * session whose `initialize` is id 0, so the call is id 1 (the approval card shows the
 * message byte for byte as the client sends it).
 */
export const MCP_CALL_ID = 1;

/** The JSON-RPC message that calls tool `name` of an MCP server with `args`. */
export function mcpCallMessage(name: string, args: Args) {
  return {
    method: "tools/call",
    params: { name, arguments: args },
    jsonrpc: "2.0" as const,
    id: MCP_CALL_ID,
  };
}

/** The `tools/call` POST to the MCP server at `base` (its endpoint, exactly). */
function mcpCallRequest(
  operation: AgentOperation,
  args: Args,
  base: URL,
  target: RequestTarget,
): AgentRequest {
  const headers = buildHeaders(operation, args, target);
  setHeader(headers, "content-type", "application/json");
  const body = JSON.stringify(mcpCallMessage(operation.mcp!.tool, args));
  return { method: "POST", url: base.href, headers, body };
}

class BuildFailure extends Error {
  constructor(readonly detail: RequestBuildError) {
    super(detail.message);
  }
}

function fail(
  code: RequestBuildError["code"],
  message: string,
  parameter?: string,
): { error: RequestBuildError } {
  return { error: { code, message, ...(parameter !== undefined ? { parameter } : {}) } };
}

function failure(code: RequestBuildError["code"], message: string, parameter?: string) {
  return new BuildFailure(fail(code, message, parameter).error);
}

function parseBase(baseUrl: string): URL | null {
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.search || url.hash || url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** A scalar as text; objects and arrays as JSON. */
function text(value: unknown): string {
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function substitutePath(operation: AgentOperation, args: Args): string {
  const declared = new Set(operation.parameters.path.map((p) => p.name));
  const path = operation.pathTemplate.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = args[name];
    if (!declared.has(name) || isAbsent(value)) {
      throw failure(
        "missing_parameter",
        `The path parameter "${name}" is missing: pass it as the argument "${name}".`,
        name,
      );
    }
    const raw = text(value);
    if (raw === "" || raw === "." || raw === "..") {
      throw failure(
        "invalid_parameter",
        `The path parameter "${name}" cannot be ${JSON.stringify(raw)}: pass a real value.`,
        name,
      );
    }
    return encoded(name, raw);
  });
  return path.startsWith("/") ? path : `/${path}`;
}

function queryPairs(operation: AgentOperation, args: Args): string {
  const inPath = new Set(operation.parameters.path.map((p) => p.name));
  const inHeader = new Set(operation.parameters.header.map((p) => p.name));
  const inQuery = new Set(operation.parameters.query.map((p) => p.name));
  const safe = operation.method === "GET" || operation.method === "HEAD";
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (inPath.has(name) || inHeader.has(name)) continue;
    if (!safe && name === "body") continue;
    if (!safe && !inQuery.has(name)) {
      throw failure(
        "unknown_argument",
        `The argument "${name}" is not a parameter of "${operation.toolName}": remove it or put it in "body".`,
        name,
      );
    }
    for (const item of Array.isArray(value) ? value : [value]) {
      if (isAbsent(item)) continue;
      pairs.push(`${encoded(name, name)}=${encoded(name, text(item))}`);
    }
  }
  return pairs.length ? `?${pairs.join("&")}` : "";
}

/**
 * `value` percent-encoded. A lone surrogate makes `encodeURIComponent` throw a URIError;
 * it is checked first and reported as the argument's fault.
 */
function encoded(name: string, value: string): string {
  if (!value.isWellFormed()) {
    throw failure(
      "invalid_parameter",
      `The argument "${name}" is not valid Unicode text (it holds a lone UTF-16 surrogate), so it cannot be sent in a URL: pass plain text.`,
      name,
    );
  }
  return encodeURIComponent(value);
}

function checkUnderBase(url: string, base: URL): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw failure("outside_base_url", `The URL "${url}" is not valid.`);
  }
  const prefix = base.pathname.replace(/\/+$/, "");
  const built = url.slice(base.origin.length).split("?")[0];
  const under = parsed.pathname === prefix || parsed.pathname.startsWith(`${prefix}/`);
  // A parser that rewrote the path (dot segments) means the URL is not what we built.
  if (parsed.origin !== base.origin || !under || parsed.pathname !== built) {
    throw failure(
      "outside_base_url",
      `The URL "${url}" leaves the agent's base URL "${base.href}": check the path parameters.`,
    );
  }
}

function buildHeaders(operation: AgentOperation, args: Args, target: RequestTarget) {
  const headers: Record<string, string> = {};
  for (const param of operation.parameters.header) {
    const value = args[param.name];
    if (isAbsent(value)) {
      if (param.required) {
        throw failure(
          "missing_parameter",
          `The header parameter "${param.name}" is missing: pass it as the argument "${param.name}".`,
          param.name,
        );
      }
      continue;
    }
    setHeader(headers, param.name, checkedHeaderValue(param.name, text(value)));
  }
  for (const [name, value] of Object.entries(target.headers ?? {})) {
    setHeader(headers, name, checkedHeaderValue(name, value));
  }
  if (target.metadata) {
    const { chatId, locale, visitor } = target.metadata;
    setHeader(headers, CONTEXT_HEADER, asciiJson({ chatId, locale, visitor }));
  }
  return headers;
}

function checkedHeaderValue(name: string, value: string): string {
  if (!/^[\x20-\x7e\t]*$/.test(value)) {
    throw failure(
      "invalid_parameter",
      `The header "${name}" must be printable ASCII without line breaks: remove other characters.`,
      name,
    );
  }
  return value;
}

/** JSON with every non-ASCII character escaped, so it is a valid header value. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Sets a header, replacing any other spelling of its name. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  }
  headers[name] = value;
}

function bodyOf(operation: AgentOperation, args: Args): string | undefined {
  if (operation.method === "GET" || operation.method === "HEAD") return undefined;
  const body = args.body;
  if (isAbsent(body)) {
    if (operation.requestBody?.required) {
      throw failure(
        "missing_parameter",
        `The request body is missing: pass it as the argument "body".`,
        "body",
      );
    }
    return undefined;
  }
  return JSON.stringify(body);
}

const SECRET_NAMES = new Set(["authorization", "cookie", "x-api-key", "proxy-authorization"]);

/**
 * Headers for display: values of Authorization, Cookie, X-Api-Key, any header whose
 * name contains token/secret/key/auth, and every name in `secretNames` (the agent's
 * configured headers) become `••••`.
 */
export function redactHeaders(
  headers: Record<string, string>,
  secretNames: Iterable<string> = [],
): Record<string, string> {
  const secrets = new Set([...secretNames].map((name) => name.toLowerCase()));
  const redacted: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const secret = SECRET_NAMES.has(lower) || secrets.has(lower) ||
      /token|secret|key|auth/.test(lower);
    redacted[name] = secret ? REDACTED : value;
  }
  return redacted;
}

/** The display form of `request`: redacted headers and a pretty JSON body. */
export function describeRequest(
  request: AgentRequest,
  secretNames: Iterable<string> = [],
): RequestDescription {
  const description: RequestDescription = {
    method: request.method,
    url: request.url,
    headers: redactHeaders(request.headers, secretNames),
  };
  if (request.body !== undefined) description.body = prettyJson(request.body);
  return description;
}

function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
