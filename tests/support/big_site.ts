/**
 * A site on loopback whose sitemap lists many pages (200,000 by default),
 * streamed as it is generated so the server holds none of it, plus pages that
 * are too deeply nested for Readability. For the import's memory and budget tests.
 */

/** A running big site. */
export interface BigSite {
  origin: string;
  /** Page requests served (sitemap and robots.txt excluded). */
  readonly pageHits: number;
  close(): Promise<void>;
}

/** A page whose only content sits `depth` divs deep. */
export function nestedPage(depth: number): string {
  return `<!doctype html><html lang="en"><head><title>Nested ${depth}</title></head><body><main>` +
    `${"<div>".repeat(depth)}<p>This paragraph is ${depth} elements deep.</p>` +
    `${"</div>".repeat(depth)}</main></body></html>`;
}

/** The page at /p/N: a short article, unique per N. */
export function numberedPage(n: number): string {
  return `<!doctype html><html lang="en"><head><title>Page ${n}</title></head><body><main>` +
    `<h1>Page ${n}</h1><p>This is page number ${n} of the big site, with a sentence of its own ` +
    `so that it is kept as content.</p></main></body></html>`;
}

/** A `<urlset>` of /p/0 … /p/(count-1) (and `extra` paths first), generated chunk by chunk. */
function sitemapStream(origin: string, count: number, extra: readonly string[]): ReadableStream {
  const enc = new TextEncoder();
  let n = 0;
  return new ReadableStream<Uint8Array>({
    start(c) {
      const head = `<?xml version="1.0" encoding="UTF-8"?>\n` +
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
      c.enqueue(
        enc.encode(head + extra.map((p) => `<url><loc>${origin}${p}</loc></url>\n`).join("")),
      );
    },
    pull(c) {
      if (n >= count) {
        c.enqueue(enc.encode("</urlset>\n"));
        return c.close();
      }
      const lines: string[] = [];
      for (const end = Math.min(count, n + 1000); n < end; n++) {
        lines.push(`<url><loc>${origin}/p/${n}</loc><lastmod>2025-06-01</lastmod></url>\n`);
      }
      c.enqueue(enc.encode(lines.join("")));
    },
  });
}

/**
 * Serves /sitemap.xml (`extra` paths, then `urls` numbered pages), /p/N, and
 * /nested/D (a page D divs deep) on 127.0.0.1.
 */
export function startBigSite(urls = 200_000, extra: readonly string[] = []): BigSite {
  let pageHits = 0;
  const html = (body: string) =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req): Response => {
    const path = new URL(req.url).pathname;
    if (path === "/sitemap.xml") {
      return new Response(sitemapStream(origin, urls, extra), {
        headers: { "content-type": "application/xml" },
      });
    }
    if (path === "/robots.txt") return new Response("User-agent: *\nAllow: /\n");
    pageHits++;
    const page = /^\/p\/(\d+)$/.exec(path);
    if (page) return html(numberedPage(Number(page[1])));
    const nested = /^\/nested\/(\d+)$/.exec(path);
    if (nested) return html(nestedPage(Number(nested[1])));
    return new Response("not found", { status: 404 });
  });
  const origin: string = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return {
    origin,
    get pageHits() {
      return pageHits;
    },
    close: () => server.shutdown(),
  };
}
