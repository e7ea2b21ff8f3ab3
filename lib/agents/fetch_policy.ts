/**
 * Sends an agent's built request from the server, under a network policy:
 *
 * - the request goes only to the agent's declared origin (its baseUrl's);
 * - redirects are followed by hand, at most 3, and only on that origin (a 303, or a
 *   301/302 after a non-GET, becomes a bodiless GET); an off-origin Location is refused
 *   and never contacted;
 * - a redirect that leaves the agent's base URL (its origin and path prefix) loses the
 *   credentials: `Authorization`, `Proxy-Authorization`, `Cookie` and every header the
 *   owner configured for the agent (`secretHeaders`) are not sent to it, nor to any later
 *   hop (another API on the same host must not receive this agent's secrets);
 * - before each hop the host is checked: an IP literal directly, a name resolved to its
 *   A and AAAA records; unless the agent is `local`, every address must be public
 *   unicast (private, loopback, link-local, unique-local, CGNAT, multicast, unspecified,
 *   reserved, and IPv4-mapped or IPv4-compatible IPv6 forms of those are refused, classified
 *   by `ipaddr.js` and {@linkcode addressRange});
 * - one timeout covers the DNS look-ups, the hops and reading the body;
 * - the body is read with a byte cap while streaming (Content-Length is not trusted);
 * - a non-2xx answer is `{ error: { status, message } }`, the message taken from the
 *   body's JSON `message`/`error` when there is one, truncated;
 * - a JSON answer is parsed; any other answer is kept as text, truncated to the cap.
 *
 * Known limit: the address is checked, then `fetch` resolves the name again, so a DNS
 * server that answers differently the second time (rebinding) is not stopped here.
 */
import ipaddr from "ipaddr.js";
import { readCapped } from "@/lib/stream/read_capped.ts";
import type { AgentRequest } from "./request.ts";
import type { AgentConfig } from "./types.ts";

/** Resolves a host name to its addresses of one record type (like `Deno.resolveDns`). */
export type ResolveDns = (host: string, type: "A" | "AAAA") => Promise<string[]>;

/** Options of {@linkcode executeAgentRequest}. */
export interface ExecuteOptions {
  agent: Pick<AgentConfig, "id" | "baseUrl" | "local">;
  /**
   * Names of the agent's configured headers (its credentials): dropped, with the usual
   * credential headers, once a redirect leaves the base URL.
   */
  secretHeaders?: Iterable<string>;
  /** The fetch used for every hop (default: global fetch). */
  fetch?: typeof fetch;
  /** Limit for the whole call, DNS and body included (default 10 s). */
  timeoutMs?: number;
  /** Largest body read (default 1 MiB). */
  maxResponseBytes?: number;
  /** Name resolution (default `Deno.resolveDns`). */
  resolveDns?: ResolveDns;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

/** Why a call failed: `status` is the HTTP status, or 0 when no answer was used. */
export interface AgentCallError {
  status: number;
  message: string;
  code: "http" | "blocked" | "redirect" | "timeout" | "network" | "too_large";
}

/** The result of {@linkcode executeAgentRequest}. */
export type AgentCallResult = { data: unknown; status: number } | { error: AgentCallError };

const MAX_REDIRECTS = 3;
const REDIRECTS = [301, 302, 303, 307, 308];
const MAX_ERROR_MESSAGE = 300;

class CallFailure extends Error {
  constructor(readonly detail: AgentCallError) {
    super(detail.message);
  }
}

function failure(code: AgentCallError["code"], message: string, status = 0) {
  return new CallFailure({ status, message, code });
}

/**
 * Sends `request` for `options.agent` under the policy above.
 *
 * @example
 * ```ts
 * const result = await executeAgentRequest(built.request, { agent });
 * if ("error" in result) console.warn(result.error.message);
 * ```
 */
export async function executeAgentRequest(
  request: AgentRequest,
  options: ExecuteOptions,
): Promise<AgentCallResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const response = await followRedirects(request, options, signal);
    return await readResult(response, options.maxResponseBytes ?? 1024 * 1024, signal);
  } catch (error) {
    if (error instanceof CallFailure) return { error: error.detail };
    if (timeout.aborted) {
      return {
        error: { status: 0, code: "timeout", message: `No answer within ${timeoutMs} ms.` },
      };
    }
    if (signal.aborted) return { error: { status: 0, code: "network", message: "Cancelled." } };
    return {
      error: { status: 0, code: "network", message: `Network error: ${(error as Error).message}` },
    };
  }
}

/** Options of {@linkcode policyFetch}: the agent and its secrets, as for a single call. */
export type PolicyFetchOptions = Pick<
  ExecuteOptions,
  "agent" | "secretHeaders" | "fetch" | "maxResponseBytes" | "resolveDns" | "signal"
>;

/**
 * A `fetch` under the same policy, for a client that speaks a protocol over HTTP (the MCP
 * client's transport): each request goes only to the agent's origin after the host check,
 * redirects are followed by hand with the same rules, and the response body is cut off
 * with an error past `maxResponseBytes` (default 1 MiB). A refusal rejects with an
 * {@linkcode AgentPolicyError} naming the reason; nothing is sent for it.
 */
export function policyFetch(options: PolicyFetchOptions): typeof fetch {
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== "string") {
      throw new AgentPolicyError({
        status: 0,
        code: "blocked",
        message: "Only text bodies may be sent to an agent.",
      });
    }
    const signals = [init?.signal, options.signal].filter((s): s is AbortSignal => !!s);
    const signal = signals.length ? AbortSignal.any(signals) : new AbortController().signal;
    const request: AgentRequest = {
      method: init?.method ?? "GET",
      url,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(typeof body === "string" ? { body } : {}),
    };
    try {
      const response = await followRedirects(request, options, signal);
      return capped(response, maxBytes);
    } catch (error) {
      if (error instanceof CallFailure) throw new AgentPolicyError(error.detail);
      throw error;
    }
  };
}

/** A refusal of {@linkcode policyFetch}: the request broke the network policy. */
export class AgentPolicyError extends Error {
  constructor(readonly detail: AgentCallError) {
    super(detail.message);
    this.name = "AgentPolicyError";
  }
}

/** `response` whose body errors once more than `maxBytes` have been read. */
function capped(response: Response, maxBytes: number): Response {
  if (!response.body) return response;
  let seen = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        controller.error(
          new AgentPolicyError({
            status: response.status,
            code: "too_large",
            message: `The answer is larger than ${maxBytes} bytes.`,
          }),
        );
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(limit), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

async function followRedirects(
  request: AgentRequest,
  options: PolicyFetchOptions,
  signal: AbortSignal,
): Promise<Response> {
  const base = new URL(options.agent.baseUrl);
  const origin = base.origin;
  let { method, url, body } = request;
  const headers = { ...request.headers };
  const credentials = new Set([
    ...CREDENTIAL_HEADERS,
    ...[...options.secretHeaders ?? []].map((name) => name.toLowerCase()),
  ]);
  for (let hop = 0;; hop++) {
    const target = new URL(url);
    if (target.origin !== origin) {
      throw failure(
        hop ? "redirect" : "blocked",
        hop
          ? `Refused a redirect to "${target.origin}": the agent may only call "${origin}".`
          : `Refused "${target.origin}": the agent may only call "${origin}".`,
      );
    }
    await checkHost(target, options, signal);
    const response = await (options.fetch ?? fetch)(url, {
      method,
      headers,
      body,
      redirect: "manual",
      signal,
    });
    const location = response.headers.get("location");
    if (!REDIRECTS.includes(response.status) || !location) return response;
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw failure("redirect", `More than ${MAX_REDIRECTS} redirects.`);
    url = new URL(location, url).href;
    if (!underBase(new URL(url), base)) dropHeaders(headers, credentials);
    if (response.status === 303 || (response.status <= 302 && method !== "GET")) {
      if (method !== "HEAD") method = "GET";
      body = undefined;
      for (const name of Object.keys(headers)) {
        if (name.toLowerCase() === "content-type") delete headers[name];
      }
    }
  }
}

/** Headers that carry credentials whatever the agent configured. */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];

/** Whether `url` is on `base`'s origin and under its path prefix (as lib/agents/request.ts checks). */
function underBase(url: URL, base: URL): boolean {
  const prefix = base.pathname.replace(/\/+$/, "");
  return url.origin === base.origin &&
    (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
}

/** Removes every header whose lower-case name is in `names`. */
function dropHeaders(headers: Record<string, string>, names: ReadonlySet<string>): void {
  for (const name of Object.keys(headers)) {
    if (names.has(name.toLowerCase())) delete headers[name];
  }
}

/** Refuses a host whose addresses are not public, unless the agent is local. */
async function checkHost(
  url: URL,
  options: PolicyFetchOptions,
  signal: AbortSignal,
): Promise<void> {
  if (options.agent.local) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host, options, signal);
  for (const address of addresses) {
    const range = addressRange(address);
    if (range !== "unicast") {
      throw failure(
        "blocked",
        `Refused "${host}": it resolves to ${address} (${range}). Mark the agent "local: true" to call private or loopback addresses.`,
      );
    }
  }
}

/**
 * The `ipaddr.js` range of an address; only `"unicast"` is public. IPv6 forms that embed an
 * IPv4 address are judged by that address: IPv4-mapped (`::ffff:7f00:1` → "ipv4Mapped
 * loopback") and IPv4-compatible (`::7f00:1` → "ipv4Compatible loopback", which `ipaddr.js`
 * alone calls unicast). Some stacks still route the deprecated compatible form (RFC 4291) to
 * the IPv4 address, and no public API uses it, so it is never public, whatever it embeds.
 * See docs/agents-security.md.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    const range = v6.toIPv4Address().range();
    return range === "unicast" ? "unicast" : `ipv4Mapped ${range}`;
  }
  const embedded = ipv4Compatible(v6);
  if (embedded) {
    const range = embedded.range();
    return range === "unicast" ? "ipv4Compatible" : `ipv4Compatible ${range}`;
  }
  return v6.range();
}

/** The IPv4 address of an IPv4-compatible IPv6 address (`::a.b.c.d`, not `::` or `::1`). */
function ipv4Compatible(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  if (parts.slice(0, 6).some((part) => part !== 0)) return null;
  if (parts[6] === 0 && parts[7] <= 1) return null; // `::` and `::1` are their own ranges
  return new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]);
}

async function resolve(
  host: string,
  options: PolicyFetchOptions,
  signal: AbortSignal,
): Promise<string[]> {
  if (host === "localhost" || host.endsWith(".localhost")) {
    throw failure("blocked", `Refused "${host}": it is a loopback name.`);
  }
  const lookup: ResolveDns = options.resolveDns ??
    ((name, type) => Deno.resolveDns(name, type, { signal }));
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  const answers = await Promise.race([
    Promise.allSettled([lookup(host, "A"), lookup(host, "AAAA")]),
    aborted,
  ]);
  const addresses = answers.flatMap((answer) => answer.status === "fulfilled" ? answer.value : []);
  if (!addresses.length) throw failure("network", `Could not resolve "${host}".`);
  return addresses;
}

async function readResult(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<AgentCallResult> {
  const { bytes, truncated } = await readCapped(response.body, maxBytes);
  if (signal.aborted) throw signal.reason;
  const text = new TextDecoder().decode(bytes);
  const type = response.headers.get("content-type") ?? "";
  const json = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type);
  if (!response.ok) {
    return {
      error: { status: response.status, code: "http", message: errorMessage(response, text, json) },
    };
  }
  if (json && truncated) {
    throw failure(
      "too_large",
      `The JSON answer is larger than ${maxBytes} bytes.`,
      response.status,
    );
  }
  if (json && text.trim()) {
    try {
      return { data: JSON.parse(text), status: response.status };
    } catch {
      // Not the JSON it claims to be: keep it as text.
    }
  }
  if (!text) return { data: null, status: response.status };
  return {
    data: truncated ? `${text}\n[truncated at ${maxBytes} bytes]` : text,
    status: response.status,
  };
}

function errorMessage(response: Response, text: string, json: boolean): string {
  let message = "";
  if (json) {
    try {
      const body = JSON.parse(text);
      const found = body?.message ?? body?.error?.message ?? body?.error;
      if (typeof found === "string") message = found;
    } catch {
      // Fall back to the text below.
    }
  }
  message ||= json ? "" : text.trim();
  message ||= response.statusText || `HTTP ${response.status}`;
  return message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE)}…` : message;
}
