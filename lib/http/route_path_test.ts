import assert from "node:assert/strict";
import {
  compareSpecificity,
  matchSegments,
  parseRoutePath,
  RouteNameError,
  type Segment,
} from "./route_path.ts";
import { compileRoutes } from "./app.ts";
import type { Manifest } from "./types.ts";

function pattern(path: string): string {
  const r = parseRoutePath(path);
  assert.equal(r.kind, "route");
  return (r as { pattern: string }).pattern;
}

Deno.test("route path: index, static, params, catch-all and groups", () => {
  assert.equal(pattern("index.tsx"), "/");
  assert.equal(pattern("about.tsx"), "/about");
  assert.equal(pattern("blog/index.tsx"), "/blog");
  assert.equal(pattern("blog/[slug].tsx"), "/blog/:slug");
  assert.equal(pattern("api/chat/[id]/stream.ts"), "/api/chat/:id/stream");
  assert.equal(pattern("docs/[...rest].tsx"), "/docs/:rest*");
  assert.equal(pattern("(marketing)/pricing.tsx"), "/pricing");
  assert.equal(pattern("(a)/(b)/x/[id].ts"), "/x/:id");
  assert.equal(pattern("file.with.dots.ts"), "/file.with.dots");
});

Deno.test("route path: special files", () => {
  assert.deepEqual(parseRoutePath("_app.tsx"), { kind: "app" });
  assert.deepEqual(parseRoutePath("_404.tsx"), { kind: "404" });
  assert.deepEqual(parseRoutePath("_500.tsx"), { kind: "500" });
  const mw = parseRoutePath("api/_middleware.ts");
  assert.equal(mw.kind, "middleware");
  assert.equal((mw as { prefix: string }).prefix, "/api");
});

Deno.test("route path: invalid names are rejected with the file named", () => {
  for (
    const bad of [
      "[a]b].tsx",
      "x/[...rest]/y.tsx",
      "blog/_draft.tsx",
      "blog/_app.tsx",
      "a b.tsx",
      "[id]/[id].tsx",
      "(group).tsx",
      "readme.md",
      "[1x].tsx",
    ]
  ) {
    assert.throws(
      () => parseRoutePath(bad),
      (e: unknown) => e instanceof RouteNameError && e.message.includes(bad),
      bad,
    );
  }
});

Deno.test("route path: ambiguous routes are refused", () => {
  const m = (files: string[]): Manifest => ({
    routes: Object.fromEntries(files.map((f) => [f, {}])),
    islands: {},
  });
  assert.throws(
    () => compileRoutes(m(["blog/[slug].tsx", "blog/[id].tsx"])),
    /match the same URLs/,
  );
  assert.throws(() => compileRoutes(m(["about.tsx", "about/index.tsx"])), /match the same URLs/);
  assert.throws(() => compileRoutes(m(["(a)/x.tsx", "(b)/x.tsx"])), /match the same URLs/);
  assert.doesNotThrow(() =>
    compileRoutes(m(["blog/[slug].tsx", "blog/new.tsx", "blog/[...rest].tsx"]))
  );
});

Deno.test("route matching: specificity and decoding", () => {
  const seg = (p: string) => (parseRoutePath(p) as { segments: Segment[] }).segments;
  const routes = ["[...rest].tsx", "blog/[slug].tsx", "blog/new.tsx", "index.tsx"].map((f) => ({
    f,
    s: seg(f),
  }));
  routes.sort((a, b) => compareSpecificity(a.s, b.s));
  const match = (path: string) => routes.find((r) => matchSegments(r.s, path))?.f;
  assert.equal(match("/"), "index.tsx");
  assert.equal(match("/blog/new"), "blog/new.tsx");
  assert.equal(match("/blog/hello"), "blog/[slug].tsx");
  assert.equal(match("/blog/a/b"), "[...rest].tsx");
  assert.deepEqual(matchSegments(seg("blog/[slug].tsx"), "/blog/ol%C3%A1"), { slug: "olá" });
  assert.deepEqual(matchSegments(seg("docs/[...rest].tsx"), "/docs/a/b"), { rest: "a/b" });
  assert.deepEqual(matchSegments(seg("docs/[...rest].tsx"), "/docs"), { rest: "" });
  assert.equal(matchSegments(seg("blog/[slug].tsx"), "/blog/"), null);
});
