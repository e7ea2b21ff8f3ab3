/**
 * Turns a file path under routes/ into a route, following Fresh's naming:
 * `index` → the folder itself, `[id]` → a parameter, `[...rest]` → a catch-all,
 * `(group)` → a folder that does not appear in the URL, `_app`, `_middleware`,
 * `_404`, `_500` → special files.
 */

/** One segment of a compiled route pattern. */
export type Segment =
  | { kind: "static"; value: string }
  | { kind: "param"; name: string }
  | { kind: "rest"; name: string };

/** What a file under routes/ is. */
export type RouteFile =
  | { kind: "route"; pattern: string; segments: Segment[] }
  | { kind: "app" | "404" | "500" }
  | { kind: "middleware"; prefix: string; segments: Segment[] };

/** Raised for a file name that cannot become a route. */
export class RouteNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RouteNameError";
  }
}

const PARAM = /^\[([A-Za-z_][A-Za-z0-9_]*)\]$/;
const REST = /^\[\.\.\.([A-Za-z_][A-Za-z0-9_]*)\]$/;
const GROUP = /^\([A-Za-z0-9_-]+\)$/;
const STATIC = /^[A-Za-z0-9._~-]+$/;
const EXTENSION = /\.(tsx|ts|jsx|js)$/;

/**
 * Parses a path relative to routes/ (e.g. `api/chat/[id]/stream.ts`).
 *
 * @example parseRoutePath("blog/[slug].tsx") // { kind: "route", pattern: "/blog/:slug", … }
 */
export function parseRoutePath(relPath: string): RouteFile {
  const path = relPath.replaceAll("\\", "/").replace(/^\.?\//, "");
  if (!EXTENSION.test(path)) {
    throw new RouteNameError(`Route file "${path}" must end in .ts, .tsx, .js or .jsx.`);
  }
  const parts = path.replace(EXTENSION, "").split("/");
  const file = parts.pop()!;
  const folders: Segment[] = [];
  for (const part of parts) {
    if (GROUP.test(part)) continue;
    folders.push(parseSegment(part, path));
  }
  if (folders.some((s) => s.kind === "rest")) {
    throw new RouteNameError(
      `Route file "${path}": a catch-all "[...name]" must be the last segment.`,
    );
  }
  if (file === "_app" || file === "_404" || file === "_500") {
    if (folders.length > 0) {
      throw new RouteNameError(`Route file "${path}": ${file} belongs at the top of routes/.`);
    }
    return { kind: file === "_app" ? "app" : file === "_404" ? "404" : "500" };
  }
  if (file === "_middleware") {
    return { kind: "middleware", prefix: toPattern(folders), segments: folders };
  }
  if (file.startsWith("_")) {
    throw new RouteNameError(
      `Route file "${path}": names starting with "_" are reserved (_app, _middleware, _404, _500).`,
    );
  }
  const segments = file === "index" ? folders : [...folders, parseSegment(file, path)];
  checkDuplicateParams(segments, path);
  return { kind: "route", pattern: toPattern(segments), segments };
}

function parseSegment(part: string, path: string): Segment {
  let m = REST.exec(part);
  if (m) return { kind: "rest", name: m[1] };
  m = PARAM.exec(part);
  if (m) return { kind: "param", name: m[1] };
  if (GROUP.test(part)) {
    throw new RouteNameError(`Route file "${path}": a group "${part}" can only be a folder.`);
  }
  if (!STATIC.test(part) || part.includes("[") || part.includes("]")) {
    throw new RouteNameError(
      `Route file "${path}": segment "${part}" is not a valid name. Use letters, digits, ".", "-", "_", "[param]" or "[...rest]".`,
    );
  }
  return { kind: "static", value: part };
}

function checkDuplicateParams(segments: Segment[], path: string): void {
  const names = new Set<string>();
  for (const s of segments) {
    if (s.kind === "static") continue;
    if (names.has(s.name)) {
      throw new RouteNameError(`Route file "${path}": parameter "${s.name}" appears twice.`);
    }
    names.add(s.name);
  }
}

/** The pattern written in URL style: `/blog/:slug`, `/docs/:rest*`. */
export function toPattern(segments: Segment[]): string {
  if (segments.length === 0) return "/";
  return "/" +
    segments.map((s) =>
      s.kind === "static" ? s.value : s.kind === "param" ? `:${s.name}` : `:${s.name}*`
    ).join("/");
}

/**
 * The shape of a pattern with parameter names erased: two routes with the same
 * shape would match the same URLs, which is ambiguous.
 */
export function patternShape(segments: Segment[]): string {
  return "/" +
    segments.map((s) => s.kind === "static" ? s.value : s.kind === "param" ? "[]" : "[...]").join(
      "/",
    );
}

/**
 * Orders routes so that the most specific wins: at each position a static
 * segment beats a parameter, which beats a catch-all; longer beats shorter.
 */
export function compareSpecificity(a: Segment[], b: Segment[]): number {
  const rank = (s: Segment | undefined) =>
    s === undefined ? 3 : s.kind === "static" ? 0 : s.kind === "param" ? 1 : 2;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = rank(a[i]) - rank(b[i]);
    if (d !== 0) {
      // A missing segment sorts after anything but a catch-all, which also matches nothing more.
      if (a[i] === undefined && b[i]?.kind === "rest") return -1;
      if (b[i] === undefined && a[i]?.kind === "rest") return 1;
      return d;
    }
  }
  return 0;
}

/**
 * Matches a URL pathname against segments; returns decoded params or null.
 * A catch-all also matches zero segments.
 */
export function matchSegments(
  segments: Segment[],
  pathname: string,
): Record<string, string> | null {
  const parts = pathname === "/" ? [] : pathname.replace(/^\//, "").replace(/\/$/, "").split("/");
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.kind === "rest") {
      params[s.name] = parts.slice(i).map(safeDecode).join("/");
      return params;
    }
    const part = parts[i];
    if (part === undefined || part === "") return null;
    if (s.kind === "static") {
      if (part !== s.value) return null;
    } else {
      params[s.name] = safeDecode(part);
    }
  }
  return parts.length === segments.length ? params : null;
}

/** Whether `pathname` lies under a middleware's folder. */
export function matchesPrefix(
  segments: Segment[],
  pathname: string,
): Record<string, string> | null {
  const parts = pathname === "/" ? [] : pathname.replace(/^\//, "").split("/");
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.kind === "rest") return params;
    const part = parts[i];
    if (part === undefined || part === "") return null;
    if (s.kind === "static" && part !== s.value) return null;
    if (s.kind === "param") params[s.name] = safeDecode(part);
  }
  return params;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
