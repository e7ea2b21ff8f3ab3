/**
 * The request pipeline: static files, then the file routes of the manifest with
 * their middleware, then the 404 page. /api/ paths (and /mcp) always answer JSON;
 * every other path gets HTML error pages.
 */
import { type ComponentType, h, type VNode } from "preact";
import { renderDocument } from "@/lib/islands/render.ts";
import { contentSecurityPolicy, newNonce } from "./csp.ts";
import { errorResponse, HttpError, httpErrorResponse } from "./errors.ts";
import { ServiceUnavailableError } from "@/lib/outage.ts";
import {
  compareSpecificity,
  matchesPrefix,
  matchSegments,
  parseRoutePath,
  patternShape,
  RouteNameError,
  type Segment,
} from "./route_path.ts";
import { createStaticHandler } from "./static_files.ts";
import { isApiPath } from "./api_cors.ts";
import { errorName, noteRequest, type RequestLogOptions, withRequestLog } from "./request_log.ts";
import type {
  App,
  Context,
  HandlerFn,
  IslandAssets,
  Manifest,
  Method,
  RouteModule,
} from "./types.ts";

const METHODS: Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

interface CompiledRoute {
  file: string;
  pattern: string;
  segments: Segment[];
  module: RouteModule;
}

interface CompiledMiddleware {
  segments: Segment[];
  fn: HandlerFn<unknown>;
  depth: number;
}

/** Options of `createApp`. */
export interface AppOptions<S> {
  manifest: Manifest;
  /** Services handed to every handler as `ctx.app`. */
  services: S;
  /** Folder served as static files. */
  staticDir: URL;
  /**
   * Folder of the build's generated files (island bundles, widget scripts), served before
   * `staticDir` when it is another folder (a test build's, lib/islands/assets_dir.ts).
   */
  assetsDir?: URL;
  /** Island bundle file names, or null when not built yet. */
  islandAssets: IslandAssets | null;
  /** Development mode: static files reread, errors shown in detail. */
  dev?: boolean;
  /** Other origins pages may fetch from (browser-run agents' APIs), for the CSP's connect-src. */
  connectOrigins?: string[];
  /** One JSON line per request (lib/http/request_log.ts); null or absent logs nothing. */
  requestLog?: RequestLogOptions | null;
  /** Origins pages may frame (the artifact origin), for the CSP's frame-src. */
  frameOrigins?: string[];
}

/** Compiles the manifest's routes, refusing ambiguous ones, and orders them by specificity. */
export function compileRoutes(manifest: Manifest): {
  routes: CompiledRoute[];
  middlewares: CompiledMiddleware[];
  special: { app?: RouteModule; notFound?: RouteModule; error?: RouteModule };
} {
  const routes: CompiledRoute[] = [];
  const middlewares: CompiledMiddleware[] = [];
  const special: { app?: RouteModule; notFound?: RouteModule; error?: RouteModule } = {};
  const shapes = new Map<string, string>();
  for (const [file, module] of Object.entries(manifest.routes)) {
    const parsed = parseRoutePath(file);
    if (parsed.kind === "route") {
      const shape = patternShape(parsed.segments);
      const other = shapes.get(shape);
      if (other) {
        throw new RouteNameError(
          `Routes "${other}" and "${file}" match the same URLs ("${parsed.pattern}"). Rename or remove one.`,
        );
      }
      shapes.set(shape, file);
      routes.push({ file, pattern: parsed.pattern, segments: parsed.segments, module });
    } else if (parsed.kind === "middleware") {
      const fn = module.handler;
      if (typeof fn !== "function") {
        throw new RouteNameError(`Middleware "${file}" must export a \`handler\` function.`);
      }
      middlewares.push({ segments: parsed.segments, fn, depth: parsed.segments.length });
    } else if (parsed.kind === "app") special.app = module;
    else if (parsed.kind === "404") special.notFound = module;
    else special.error = module;
  }
  routes.sort((a, b) => compareSpecificity(a.segments, b.segments));
  middlewares.sort((a, b) => a.depth - b.depth);
  return { routes, middlewares, special };
}

/** Serves the assets folder first, then the static folder, when they differ. */
function staticHandler<S>(options: AppOptions<S>): ReturnType<typeof createStaticHandler> {
  const serveStatic = createStaticHandler(options.staticDir, { dev: options.dev });
  if (!options.assetsDir || options.assetsDir.href === options.staticDir.href) return serveStatic;
  const serveAssets = createStaticHandler(options.assetsDir, { dev: options.dev });
  return async (req, url) => await serveAssets(req, url) ?? serveStatic(req, url);
}

/** Builds the app from the manifest. */
export function createApp<S>(options: AppOptions<S>): App {
  const compiled = compileRoutes(options.manifest);
  const serveStatic = staticHandler(options);
  const pages = createPages(options, compiled.special);

  const handle: App = async (req: Request, info?: Deno.ServeHandlerInfo) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return errorResponse("invalid_request", "The request URL is not valid.");
    }
    // The peer address, for per-IP limits. X-Forwarded-For is not trusted: clients could forge it.
    const state: Record<string, unknown> = {
      remoteAddr: info && "hostname" in info.remoteAddr ? info.remoteAddr.hostname : undefined,
    };
    const isApi = isApiPath(url);
    try {
      if (!isApi) {
        const file = await serveStatic(req, url);
        if (file) {
          noteRequest(req, { route: "static" });
          return file;
        }
      }
      const res = await dispatch(compiled, pages, req, url, state);
      return req.method === "HEAD" && res.body ? new Response(null, res) : res;
    } catch (error) {
      return failureResponse(error, pages, req, url, state);
    }
  };
  return options.requestLog ? withRequestLog(handle, options.requestLog) : handle;
}

type PageComponent = ComponentType<Record<string, unknown>>;

/** How the app answers with pages: a route's context (its `render`) and the error pages. */
interface Pages<S> {
  context(
    req: Request,
    url: URL,
    params: Record<string, string>,
    state: Record<string, unknown>,
    component: PageComponent | undefined,
    next: () => Promise<Response>,
  ): Context<S>;
  /**
   * The HTML error page of `status`: _404 for 404, _500 for the rest. A client
   * error (HttpError) shows its message; a server error only in development.
   */
  errorPage(status: number, url: URL, state: Record<string, unknown>, error?: unknown): Response;
}

function createPages<S>(options: AppOptions<S>, special: CompiledManifest["special"]): Pages<S> {
  const islands = options.manifest.islands as Record<string, ComponentType<unknown>>;

  function page(component: PageComponent, props: Record<string, unknown>, init?: ResponseInit) {
    const inner = () => h(component, props);
    const appComponent = special.app?.default;
    const vnode: VNode = appComponent ? h(appComponent, { ...props, Component: inner }) : inner();
    // A fresh nonce per page: the island boot script is inline and must carry it.
    const nonce = newNonce();
    const { html } = renderDocument(vnode, islands, options.islandAssets, { nonce });
    const headers = new Headers(init?.headers);
    headers.set("Content-Type", "text/html; charset=utf-8");
    headers.set(
      "Content-Security-Policy",
      contentSecurityPolicy(nonce, options.connectOrigins, options.frameOrigins),
    );
    return new Response(html, { ...init, headers });
  }

  return {
    context(req, url, params, state, component, next) {
      return {
        req,
        url,
        params,
        state,
        app: options.services,
        next,
        render(data?: unknown, init?: ResponseInit) {
          if (!component) {
            throw new Error(`Route for "${url.pathname}" has no page component to render.`);
          }
          return page(component, { data, url, params, state, app: options.services }, init);
        },
      };
    },

    errorPage(status, url, state, error) {
      const module = status === 404 ? special.notFound : special.error;
      const component = module?.default as PageComponent | undefined;
      const headers = error instanceof HttpError ? error.headers : undefined;
      if (!component) {
        const text = error instanceof HttpError
          ? error.message
          : status === 404
          ? "Not found"
          : "Internal error";
        return new Response(text, { status, headers });
      }
      const message = error instanceof HttpError
        ? error.message
        : options.dev && error instanceof Error
        ? error.stack ?? error.message
        : undefined;
      const props = { data: { status, message }, url, params: {}, state, app: options.services };
      return page(component, props, { status, headers });
    },
  };
}

type CompiledManifest = ReturnType<typeof compileRoutes>;

/** Runs the middleware chain over the path, then the route that matches it (or a 404). */
async function dispatch<S>(
  { routes, middlewares }: CompiledManifest,
  pages: Pages<S>,
  req: Request,
  url: URL,
  state: Record<string, unknown>,
): Promise<Response> {
  const isApi = isApiPath(url);
  let route: CompiledRoute | undefined;
  let params: Record<string, string> | null = null;
  for (const r of routes) {
    params = matchSegments(r.segments, url.pathname);
    if (params) {
      route = r;
      break;
    }
  }
  // Each middleware under whose folder the path lies, with its folder's params.
  const chain = middlewares.flatMap((m) => {
    const params = matchesPrefix(m.segments, url.pathname);
    return params ? [{ fn: m.fn, params }] : [];
  });
  const component = route?.module.default as PageComponent | undefined;
  if (route) noteRequest(req, { route: route.pattern });

  const final = (): Promise<Response> => {
    if (!route) {
      return Promise.resolve(
        isApi
          ? errorResponse("not_found", `No API route matches "${url.pathname}".`)
          : pages.errorPage(404, url, state),
      );
    }
    const ctx = pages.context(req, url, params!, state, component, final);
    return Promise.resolve(runRoute(route.module, ctx, req.method, isApi));
  };

  let i = 0;
  const next = (): Promise<Response> => {
    const m = chain[i++];
    if (!m) return final();
    return Promise.resolve(
      m.fn(pages.context(req, url, m.params, state, component, next) as Context<unknown>),
    );
  };
  return await next();
}

/** Calls the route's handler for the method (a page without one answers GET and HEAD). */
function runRoute<S>(
  module: RouteModule,
  ctx: Context<S>,
  requestMethod: string,
  isApi: boolean,
): Response | Promise<Response> {
  const handler = module.handler;
  if (handler === undefined) {
    if (requestMethod === "GET" || requestMethod === "HEAD") return ctx.render();
    return methodNotAllowed(["GET", "HEAD"], isApi);
  }
  if (typeof handler === "function") return handler(ctx);
  const method = requestMethod as Method;
  const fn = handler[method] ?? (method === "HEAD" ? handler.GET : undefined);
  if (!fn) {
    const allowed = METHODS.filter((m) => handler[m] || (m === "HEAD" && handler.GET));
    return methodNotAllowed(allowed, isApi);
  }
  return fn(ctx);
}

/**
 * The answer to an error thrown while handling a request: JSON on /api/, an error page
 * elsewhere; a client error says what was wrong, a server error is logged and stays generic.
 */
function failureResponse<S>(
  error: unknown,
  pages: Pages<S>,
  req: Request,
  url: URL,
  state: Record<string, unknown>,
): Response {
  const isApi = isApiPath(url);
  if (error instanceof HttpError) {
    if (isApi) return httpErrorResponse(error);
    if (error.status === 404) return pages.errorPage(404, url, state);
    return pages.errorPage(error.status, url, state, error);
  }
  if (error instanceof ServiceUnavailableError) {
    console.error(`Unavailable on ${req.method} ${url.pathname}:`, error.cause ?? error);
    noteRequest(req, { error: errorName(error.cause ?? error) });
    const unavailable = new HttpError(
      "unavailable",
      "This service is unavailable right now. Please try again shortly.",
      { "Retry-After": "5" },
    );
    return isApi ? httpErrorResponse(unavailable) : pages.errorPage(503, url, state, unavailable);
  }
  console.error(`Unhandled error on ${req.method} ${url.pathname}:`, error);
  noteRequest(req, { error: errorName(error) });
  if (isApi) {
    return errorResponse("internal_error", "Something went wrong on our side. Try again.");
  }
  try {
    return pages.errorPage(500, url, state, error);
  } catch (pageError) {
    console.error("The 500 page itself failed:", pageError);
    return new Response("Internal error", { status: 500 });
  }
}

/** 405 with Allow: JSON on /api/, thrown to become the HTML error page elsewhere. */
function methodNotAllowed(allowed: string[], isApi: boolean): Response {
  const message = `Method not allowed. Use ${allowed.join(", ")}.`;
  const headers = { Allow: allowed.join(", ") };
  if (!isApi) throw new HttpError("method_not_allowed", message, headers);
  return errorResponse("method_not_allowed", message, headers);
}
