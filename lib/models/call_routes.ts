/**
 * Which way each upstream call of one chat turn went (gateway, direct, direct
 * after a gateway error), for the answer's receipt. The turn runs its model
 * call inside `collectRoutes`; the routed fetch reports to whichever list is
 * current in its async context.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { UpstreamRoute } from "./types.ts";

const current = new AsyncLocalStorage<UpstreamRoute[]>();

/** Runs `fn` with `routes` collecting the routes of the upstream calls it makes. */
export function collectRoutes<T>(routes: UpstreamRoute[], fn: () => T): T {
  return current.run(routes, fn);
}

/** Reports the route of a call that got a response; a no-op outside `collectRoutes`. */
export function reportRoute(route: UpstreamRoute): void {
  current.getStore()?.push(route);
}
