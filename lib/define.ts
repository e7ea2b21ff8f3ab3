/**
 * Typed helpers for route files, as Fresh's `define`: they return what they are
 * given, and exist so handlers and pages get the app's types without annotations.
 */
import type { ComponentType } from "preact";
import type { AppServices } from "@/lib/services.ts";
import type { Context, Handler, HandlerFn, PageProps } from "./http/types.ts";

/** The context every route of this app receives. */
export type Ctx<Data = unknown> = Context<AppServices, Data>;

/** Page props of this app. */
export type Props<Data = unknown> = PageProps<Data, AppServices>;

export const define = {
  /** @example export const handler = define.handlers({ GET(ctx) { return ctx.render({}); } }); */
  handlers<Data = unknown>(h: Handler<AppServices, Data>): Handler<AppServices, Data> {
    return h;
  },
  /** A page component receiving `data` from its handler. */
  page<Data = unknown>(c: ComponentType<Props<Data>>): ComponentType<Props<Data>> {
    return c;
  },
  /** A `_middleware.ts` handler: call `ctx.next()` to go on. */
  middleware(fn: HandlerFn<AppServices>): HandlerFn<AppServices> {
    return fn;
  },
};
