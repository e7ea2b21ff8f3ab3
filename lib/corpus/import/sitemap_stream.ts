/**
 * Reads a sitemap's XML as it arrives, chunk by chunk, giving each `<loc>`
 * as soon as it is complete. Only the unfinished tail of a chunk is kept
 * between chunks, so memory stays flat however many URLs the sitemap lists
 * (a DOM of a 200,000-URL sitemap took gigabytes). The root element says
 * whether it is a page list (`<urlset>`) or a sitemap index (`<sitemapindex>`).
 */

/** The root of a sitemap document; "other" for a document that is not a sitemap. */
export type SitemapRoot = "urlset" | "sitemapindex" | "other";

/** Longest `<loc>` or tag read; past it the document is not a usable sitemap. */
export const MAX_TOKEN_CHARS = 64 * 1024;

/** Raised when the XML cannot be a sitemap (a runaway tag or `<loc>`). */
export class SitemapSyntaxError extends Error {
  override name = "SitemapSyntaxError";
}

const LOC_END = /<\/(?:[^\s>/:]+:)?loc\s*>/gi;

/**
 * An incremental `<loc>` reader.
 *
 * @example
 * const scan = new SitemapScanner();
 * for (const chunk of chunks) for (const loc of scan.feed(chunk)) urls.push(loc);
 * scan.root; // "urlset"
 */
export class SitemapScanner {
  /** The root element once seen, else null. */
  root: SitemapRoot | null = null;
  #carry = "";
  #inComment = false;
  /** The text of a `<loc>` being read, or null outside one. */
  #loc: string | null = null;

  /** Reads `chunk`; returns the `<loc>` values completed in it (decoded, trimmed, non-empty). */
  feed(chunk: string): string[] {
    const buf = this.#carry + chunk;
    this.#carry = "";
    const out: string[] = [];
    let i = 0;
    while (i < buf.length && this.root !== "other") {
      if (this.#inComment) {
        const end = buf.indexOf("-->", i);
        if (end < 0) return this.#keep(buf.slice(Math.max(i, buf.length - 2)), out);
        this.#inComment = false;
        i = end + 3;
      } else if (this.#loc !== null) {
        i = this.#readLoc(buf, i, out);
        if (i < 0) return out;
      } else {
        i = this.#readTag(buf, i);
        if (i < 0) return out;
      }
    }
    return out;
  }

  /** Inside a `<loc>`: its text up to `</loc>`; -1 when the chunk ends first. */
  #readLoc(buf: string, i: number, out: string[]): number {
    LOC_END.lastIndex = i;
    const end = LOC_END.exec(buf);
    if (!end) {
      // Keep a possible partial "</loc" back for the next chunk.
      const lt = buf.lastIndexOf("<");
      const cut = lt >= i ? lt : buf.length;
      this.#loc += buf.slice(i, cut);
      if (this.#loc!.length > MAX_TOKEN_CHARS) {
        throw new SitemapSyntaxError(`a <loc> longer than ${MAX_TOKEN_CHARS} characters`);
      }
      this.#keep(buf.slice(cut), out);
      return -1;
    }
    const value = decodeXmlText(this.#loc + buf.slice(i, end.index));
    this.#loc = null;
    if (value) out.push(value);
    return end.index + end[0].length;
  }

  /** Outside a `<loc>`: the next tag, comment or declaration; -1 when the chunk ends first. */
  #readTag(buf: string, i: number): number {
    const lt = buf.indexOf("<", i);
    if (lt < 0) return -1;
    if (buf.startsWith("<!--", lt)) {
      this.#inComment = true;
      return lt + 4;
    }
    const gt = buf.indexOf(">", lt);
    if (gt < 0 || (buf.startsWith("<!", lt) && buf.length - lt < 4)) {
      this.#keep(buf.slice(lt), []);
      return -1;
    }
    const c = buf[lt + 1];
    if (c === "!" || c === "?" || c === "/") return gt + 1;
    const name = /^[^\s/>]+/.exec(buf.slice(lt + 1, Math.min(gt, lt + 200)))?.[0] ?? "";
    const local = name.slice(name.indexOf(":") + 1).toLowerCase();
    if (this.root === null) {
      this.root = local === "urlset" || local === "sitemapindex" ? local : "other";
    } else if (local === "loc" && buf[gt - 1] !== "/") {
      this.#loc = "";
    }
    return gt + 1;
  }

  #keep(tail: string, out: string[]): string[] {
    if (tail.length > MAX_TOKEN_CHARS) {
      throw new SitemapSyntaxError(`a tag longer than ${MAX_TOKEN_CHARS} characters`);
    }
    this.#carry = tail;
    return out;
  }
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/** XML text content: CDATA sections unwrapped, the five named and numeric entities decoded. */
export function decodeXmlText(raw: string): string {
  return raw.replace(
    /<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi,
    (whole, cdata: string | undefined, ref: string | undefined) => {
      if (cdata !== undefined) return cdata;
      const r = ref!;
      if (r[0] !== "#") return ENTITIES[r.toLowerCase()] ?? whole;
      const code = r[1] === "x" || r[1] === "X" ? parseInt(r.slice(2), 16) : Number(r.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  ).trim();
}
