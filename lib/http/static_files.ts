/**
 * Serves files under static/. Content-hashed island bundles (/_islands/) are
 * immutable for a year; every other file is revalidated with a strong ETag.
 * Files are read once and kept in memory: static/ is small and fixed per deploy.
 * A path that cannot be read, for any reason, is no file: 404, never a 500.
 */

const TYPES: Record<string, string> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".bin": "application/octet-stream",
  ".woff2": "font/woff2",
  ".html": "text/html; charset=utf-8",
};

/** OS error codes that say the path names no readable file, not that the server is broken. */
const PATH_CODES = new Set(["ENOENT", "EISDIR", "ENOTDIR", "ENAMETOOLONG", "EINVAL", "EILSEQ"]);

function badPath(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.IsADirectory ||
    error instanceof Deno.errors.NotADirectory ||
    PATH_CODES.has((error as { code?: string } | null)?.code ?? "");
}

interface CachedFile {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  type: string;
}

/** Serves static files from `root`; returns null when no file matches. `dev` rereads files on every request. */
export function createStaticHandler(
  root: URL,
  { dev = false }: { dev?: boolean } = {},
): (req: Request, url: URL) => Promise<Response | null> {
  const cache = new Map<string, CachedFile | null>();

  async function load(pathname: string): Promise<CachedFile | null> {
    if (cache.has(pathname)) return cache.get(pathname)!;
    let file: CachedFile | null = null;
    try {
      const body = await Deno.readFile(new URL("." + pathname, root));
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
      const etag = `"${
        [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("")
      }"`;
      const ext = pathname.slice(pathname.lastIndexOf("."));
      file = { body, etag, type: TYPES[ext] ?? "application/octet-stream" };
    } catch (error) {
      // The path comes from the request: whatever the file system says about it (no such
      // file, a folder, a file used as a folder, a name too long for it) means no file here.
      if (!badPath(error)) console.warn(`Static file "${pathname}" unreadable:`, error);
    }
    // Misses are not cached: a later build may add the file.
    if (file && !dev) cache.set(pathname, file);
    return file;
  }

  return async (req, url) => {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return null;
    }
    if (pathname.includes("..") || pathname.includes("\0") || pathname.endsWith("/")) return null;
    const file = await load(pathname);
    if (!file) return null;
    const headers = new Headers({
      "Content-Type": file.type,
      ETag: file.etag,
      "Cache-Control": pathname.startsWith("/_islands/")
        ? "public, max-age=31536000, immutable"
        : "public, max-age=0, must-revalidate",
    });
    const inm = req.headers.get("If-None-Match");
    if (inm && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === file.etag)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(req.method === "HEAD" ? null : file.body, { headers });
  };
}
