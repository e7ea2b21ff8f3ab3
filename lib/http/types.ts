/**
 * The shapes of route modules, the generated manifest and the request context.
 */
import type { ComponentType, VNode } from "preact";

/** Per-request data shared between middleware and handlers. */
export type State = Record<string, unknown>;

/** The request context handed to handlers and middleware (one argument, as in Fresh). */
export interface Context<S, Data = unknown> {
  readonly req: Request;
  readonly url: URL;
  readonly params: Record<string, string>;
  /** Per-request values set by middleware. */
  readonly state: State;
  /** Application services (config, search, store…), fixed for the app's life. */
  readonly app: S;
  /** Renders the route's page component with `data`. */
  render(data?: Data, init?: ResponseInit): Response;
  /** Calls the next middleware or the route handler. */
  next(): Promise<Response>;
}

/** A handler for one method. */
export type HandlerFn<S, Data = unknown> = (ctx: Context<S, Data>) => Response | Promise<Response>;

/** `handler` export: a function for every method, or one per method. */
export type Handler<S, Data = unknown> =
  | HandlerFn<S, Data>
  | Partial<Record<Method, HandlerFn<S, Data>>>;

/** HTTP methods a route may implement. */
export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** Props of a page component. */
export interface PageProps<Data = unknown, S = unknown> {
  data: Data;
  url: URL;
  params: Record<string, string>;
  state: State;
  app: S;
}

/** Props of `_app.tsx`: the page to wrap. */
export interface AppProps<S = unknown> extends PageProps<unknown, S> {
  Component: () => VNode;
}

/** What a file under routes/ may export. */
export interface RouteModule {
  // deno-lint-ignore no-explicit-any
  handler?: Handler<any, any>;
  // deno-lint-ignore no-explicit-any
  default?: ComponentType<any>;
}

/** The generated manifest (fresh.gen.ts): every route and island, imported statically. */
export interface Manifest {
  /** Keyed by path relative to routes/, e.g. `api/health.ts`. */
  routes: Record<string, RouteModule>;
  /** Keyed by island name (file name without extension). */
  // deno-lint-ignore no-explicit-any
  islands: Record<string, ComponentType<any>>;
}

/** Written by the island build: which files the browser loads. */
export interface IslandAssets {
  boot: string;
  islands: Record<string, string>;
  /** Shared chunks each island needs, for modulepreload. */
  preload: Record<string, string[]>;
}

/** The whole app as one function, what `Deno.serve` runs. */
export type App = (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;
