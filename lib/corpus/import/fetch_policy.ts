/**
 * How the importer fetches a live site politely: one host only, robots.txt
 * obeyed (RFC 9309: a 4xx robots.txt allows all, an unreachable one forbids
 * all), a bounded number of requests at once, a delay between request starts
 * (raised to the site's Crawl-delay), a timeout and a size cap per response,
 * redirects followed by hand so that each hop is checked (host, loops).
 */
import { parseRobots } from "./robots.ts";
import { readCapped } from "@/lib/stream/read_capped.ts";

/** Options of `createFetcher`. */
export interface FetchPolicyOptions {
  /** The site's origin ("https://example.com"): its host is the only one pages may come from. */
  origin: string;
  /** Requests in flight at once (default 2). */
  concurrency?: number;
  /** Milliseconds between request starts (default 1000; tests use 0). */
  delayMs?: number;
  /** Per-response timeout in ms, body included (default 15000). */
  timeoutMs?: number;
  /** Per-response size cap in bytes (default 2 MiB). */
  maxBytes?: number;
  /** Redirect hops followed before giving up (default 5). */
  maxRedirects?: number;
  userAgent?: string;
  /** The fetch to use (tests may pass their own; default globalThis.fetch). */
  fetch?: typeof fetch;
}

/** A fetched response body. */
export interface Fetched {
  ok: true;
  /** The URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
}

/** Why a URL could not be used. `gone`: the page is no longer there for us (404, robots…). */
export interface FetchFailure {
  ok: false;
  reason: string;
  gone: boolean;
}

/** A response whose body a caller's reader consumed (see `PageFetcher.read`). */
export interface FetchedWith<T> extends Omit<Fetched, "text"> {
  value: T;
}

/** Options of one request: `robots: false` for the sitemap and robots.txt themselves. */
export interface GetOptions {
  robots?: boolean;
  maxBytes?: number;
}

/** A polite fetcher bound to one host. */
export interface PageFetcher {
  /** GETs `url` under the policy, the body read whole up to the size cap. */
  get(url: string, options?: GetOptions): Promise<Fetched | FetchFailure>;
  /**
   * GETs `url` under the policy and hands the final response to `read`, which
   * consumes its body as it arrives (within the request's slot and timeout)
   * and returns a value or a failure.
   */
  read<T>(
    url: string,
    options: GetOptions,
    read: (res: Response) => Promise<T | FetchFailure>,
  ): Promise<FetchedWith<T> | FetchFailure>;
  /** The policy's user agent. */
  readonly userAgent: string;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

/** The default user agent of the importer. */
export const USER_AGENT = "site-assistant-import/1.0";

/** A fetcher that keeps to `options`. */
export function createFetcher(options: FetchPolicyOptions): PageFetcher {
  const userAgent = options.userAgent ?? USER_AGENT;
  const site = new URL(options.origin);
  const maxRedirects = options.maxRedirects ?? 5;
  const request: RequestContext = {
    pacer: new Pacer(Math.max(1, options.concurrency ?? 2), options.delayMs ?? 1000),
    doFetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 15_000,
    userAgent,
  };
  let robots: Promise<((url: string) => string | null)> | null = null;

  async function readWith<T>(
    url: string,
    opts: GetOptions,
    read: (res: Response) => Promise<T | FetchFailure>,
  ): Promise<FetchedWith<T> | FetchFailure> {
    const seen = [url];
    let current = url;
    for (let hop = 0;; hop++) {
      const bad = checkHost(current, site.host);
      if (bad) return { ok: false, gone: true, reason: bad };
      if (opts.robots !== false) {
        const why = (await robotsRules())(current);
        if (why) return { ok: false, gone: true, reason: why };
      }
      const out = await fetchOnce(request, current, read);
      if (!(out instanceof Response)) return out;
      const next = new URL(out.headers.get("location")!, current).href;
      if (seen.includes(next)) {
        return { ok: false, gone: false, reason: `redirect loop: ${[...seen, next].join(" → ")}` };
      }
      if (hop + 1 >= maxRedirects) {
        return { ok: false, gone: false, reason: `more than ${maxRedirects} redirects` };
      }
      seen.push(next);
      current = next;
    }
  }

  async function get(url: string, opts: GetOptions = {}): Promise<Fetched | FetchFailure> {
    const cap = opts.maxBytes ?? options.maxBytes ?? 2 * 1024 * 1024;
    const out = await readWith(url, opts, (res) => readText(res, cap));
    if (!out.ok) return out;
    const { value, ...rest } = out;
    return { ...rest, text: value };
  }

  function robotsRules(): Promise<(url: string) => string | null> {
    robots ??= loadRobots(site, userAgent, request.pacer, get);
    return robots;
  }

  return { get, read: readWith, userAgent, concurrency: request.pacer.limit };
}

/**
 * Runs requests at most `limit` at a time, their starts at least `delayMs` apart (a site's
 * Crawl-delay can raise it once robots.txt is read).
 */
class Pacer {
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  #nextStart = 0;

  constructor(readonly limit: number, public delayMs: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((r) => this.#waiting.push(r));
    this.#active++;
    try {
      const now = Date.now();
      const wait = Math.max(0, this.#nextStart - now);
      this.#nextStart = Math.max(now, this.#nextStart) + this.delayMs;
      if (wait) await new Promise((r) => setTimeout(r, wait));
      return await work();
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }
}

/** What one request needs: the pacing, the fetch, its timeout and the user agent. */
interface RequestContext {
  pacer: Pacer;
  doFetch: typeof fetch;
  timeoutMs: number;
  userAgent: string;
}

/** One request, redirects not followed (one comes back as the Response), the body to `read`. */
function fetchOnce<T>(
  { pacer, doFetch, timeoutMs, userAgent }: RequestContext,
  url: string,
  read: (res: Response) => Promise<T | FetchFailure>,
): Promise<Response | FetchFailure | FetchedWith<T>> {
  return pacer.run(async () => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await doFetch(url, {
        redirect: "manual",
        signal,
        headers: { "user-agent": userAgent, accept: "text/html,application/xml;q=0.9,*/*;q=0.5" },
      });
      if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
        await res.body?.cancel();
        return res;
      }
      const value = await read(res);
      if (isFailure(value)) return value;
      return {
        ok: true,
        url,
        status: res.status,
        contentType: res.headers.get("content-type") ?? "",
        headers: res.headers,
        value,
      };
    } catch (error) {
      const timedOut = signal.aborted;
      return {
        ok: false,
        gone: false,
        reason: timedOut
          ? `no answer within ${timeoutMs} ms (timeout)`
          : `unreachable (${(error as Error).message.split("\n")[0]})`,
      };
    }
  });
}

/**
 * The site's robots.txt rules as a check of a URL (the reason it may not be fetched, or null).
 * A robots.txt that fails to load forbids crawling; one that is missing (4xx) allows it.
 */
async function loadRobots(
  site: URL,
  userAgent: string,
  pacer: Pacer,
  get: (url: string, opts: GetOptions) => Promise<Fetched | FetchFailure>,
): Promise<(url: string) => string | null> {
  const base = new URL("/robots.txt", site).href;
  const res = await get(base, { robots: false, maxBytes: 512 * 1024 });
  if (!res.ok || res.status >= 500) {
    const why = res.ok ? `status ${res.status}` : res.reason;
    return () => `robots.txt unavailable (${why}): the site forbids crawling until it answers`;
  }
  if (res.status >= 400) return () => null;
  const rules = parseRobots(base, res.text);
  const crawlDelay = rules.getCrawlDelay(userAgent);
  if (crawlDelay && crawlDelay * 1000 > pacer.delayMs) {
    pacer.delayMs = Math.min(crawlDelay * 1000, 30_000);
  }
  return (u: string) => rules.isDisallowed(u, userAgent) ? "disallowed by robots.txt" : null;
}

function isFailure(value: unknown): value is FetchFailure {
  return typeof value === "object" && value !== null && (value as FetchFailure).ok === false &&
    typeof (value as FetchFailure).reason === "string";
}

function checkHost(url: string, host: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `not a URL: "${url}"`;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return `not an http(s) URL: "${url}"`;
  return u.host === host ? null : `on another host ("${u.host}", only "${host}" is imported)`;
}

/** The body as text, or a failure once it passes `maxBytes` (declared or read). */
async function readText(res: Response, maxBytes: number): Promise<string | FetchFailure> {
  const tooBig: FetchFailure = {
    ok: false,
    gone: false,
    reason: `larger than the size cap of ${maxBytes} bytes`,
  };
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    return tooBig;
  }
  const read = await readCapped(res.body, maxBytes);
  return read.truncated ? tooBig : new TextDecoder().decode(read.bytes);
}
