/**
 * An HTML page → its main content: page metadata (title, language, canonical
 * URL, robots meta, license link) read from the head, folded FAQ answers shown
 * and FAQ questions marked (disclosures.ts, faq_data.ts), chrome removed (nav,
 * header, footer, asides, cookie and consent banners, dialogs), then
 * @mozilla/readability picks the main content. linkedom is the DOM. A page
 * over the work budget (page_budget.ts) is refused before it is parsed, since
 * both the parse and Readability are synchronous and can run for minutes.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { openDisclosures, openQuestionControls } from "./disclosures.ts";
import { applyFaqData, faqData, faqHtml } from "./faq_data.ts";
import { DEFAULT_PAGE_BUDGET, overBudget, type PageBudget } from "./page_budget.ts";

/** What `extractPage` finds in a page. */
export interface ExtractedPage {
  title: string;
  /** The page's declared language (`<html lang>`, og:locale, content-language), or "". */
  lang: string;
  /** The canonical URL, resolved against the page URL, or null. */
  canonical: string | null;
  /** `<meta name="robots">` (or a crawler-specific one) says noindex. */
  noindex: boolean;
  /** The license the page links to (`rel="license"`, dcterms.license), or "". */
  license: string;
  /** HTML of the main content, links resolved against the page URL. */
  html: string;
  /** Plain text length of the main content. */
  textLength: number;
}

/** Raised when a page cannot be read as HTML or has no main content. */
export class ExtractError extends Error {
  override name = "ExtractError";
}

/** Raised when a page is over the work budget: too large, too deep or too many elements. */
export class PageBudgetError extends ExtractError {
  override name = "PageBudgetError";
}

// Page chrome: removed before Readability looks, since it sometimes keeps a banner.
const CHROME = "nav, footer, aside, dialog, form, script, style, noscript, template, iframe, " +
  "[role=navigation], [role=contentinfo], [role=banner], [role=dialog], [role=alertdialog], " +
  "[aria-modal=true], [hidden]";
/** Words every disclosure markup or FAQPage data writes (disclosures.ts, faq_data.ts). */
const DISCLOSURE_HINT = /aria-controls|data-(?:bs-)?toggle|until-found/i;
/** A button or label closed right after a "?", or a control a script toggles. */
const QUESTION_CONTROL_HINT =
  /\?\s*(?:<\/(?:span|strong|b|em|i)>\s*){0,3}<\/(?:button|label)>|role=["']?button|onclick=/i;
const FAQ_DATA_HINT = /application\/ld\+json/i;
const BANNER =
  /(^|[\s_-])(cookie|cookies|consent|gdpr|lgpd|banner|newsletter|skip-link)([\s_-]|$)/i;

/**
 * Reads `html` (fetched from `pageUrl`). Throws ExtractError when the bytes are
 * not HTML text or no main content is left, PageBudgetError when the page is
 * over `budget`.
 */
export function extractPage(
  html: string,
  pageUrl: string,
  budget: Readonly<PageBudget> = DEFAULT_PAGE_BUDGET,
): ExtractedPage {
  if (html.includes("\u0000") || !/<[a-z!]/i.test(html)) {
    throw new ExtractError("invalid HTML: the body is not HTML text");
  }
  const over = overBudget(html, budget);
  if (over) throw new PageBudgetError(over);
  const { document } = parseHTML(html);
  if (!document.body || !document.documentElement) {
    throw new ExtractError("invalid HTML: no <body> could be parsed");
  }
  const meta = (sel: string) => document.querySelector(sel)?.getAttribute("content")?.trim() ?? "";
  const robots = [...document.querySelectorAll("meta[name]")]
    .filter((m) => /^(robots|googlebot|bingbot)$/i.test(m.getAttribute("name") ?? ""))
    .map((m) => m.getAttribute("content") ?? "").join(",");
  const canonicalHref = document.querySelector('link[rel~="canonical"]')?.getAttribute("href");
  const lang = document.documentElement.getAttribute("lang")?.trim() ||
    meta('meta[http-equiv="content-language" i]') || meta('meta[property="og:locale"]');
  const license = document.querySelector('link[rel~="license"], a[rel~="license"]')
    ?.getAttribute("href") ?? meta('meta[name="dcterms.license"]');
  const title = pageTitle(document);
  resolveLinks(document, pageUrl);
  // Folded FAQ answers are content, not chrome: shown before the hidden elements go.
  // Most pages have none of these: a scan of the text is cheaper than walks of the DOM.
  if (DISCLOSURE_HINT.test(html)) openDisclosures(document);
  if (QUESTION_CONTROL_HINT.test(html)) openQuestionControls(document);
  const unshown = FAQ_DATA_HINT.test(html) ? applyFaqData(document, faqData(document)) : [];
  removeChrome(document);
  const article = readable(document);
  const added = unshown.length ? faqHtml(unshown) : "";
  const text = `${article?.textContent ?? ""} ${
    added ? unshown.map((e) => e.question).join(" ") : ""
  }`
    .replace(/\s+/g, " ").trim();
  if ((!article?.content && !added) || !text) {
    throw new ExtractError("no main content found in the page");
  }
  return {
    title: title || article?.title?.trim() || "",
    lang,
    canonical: canonicalHref ? absolute(canonicalHref, pageUrl) : null,
    noindex: /\b(noindex|none)\b/i.test(robots),
    license: license ? (absolute(license, pageUrl) ?? license) : "",
    html: `${article?.content ?? ""}${added ? `\n${added}` : ""}`,
    textLength: text.length,
  };
}

type Doc = ReturnType<typeof parseHTML>["document"];

/** Readability's article, or null when it finds none (it throws on a body with no text). */
function readable(document: Doc): ReturnType<Readability["parse"]> {
  try {
    return new Readability(document as unknown as Document, { charThreshold: 0 }).parse();
  } catch {
    return null;
  }
}

/** The first h1 of the main area, else og:title, else <title> without its " | Site" suffix. */
function pageTitle(document: Doc): string {
  const scope = document.querySelector("main, article, [role=main]") ?? document.body;
  const h1 = scope?.querySelector("h1")?.textContent?.replace(/\s+/g, " ").trim();
  if (h1) return h1;
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute("content")?.trim();
  if (og) return og;
  const t = (document.title ?? "").replace(/\s+/g, " ").trim();
  return t.split(/\s+[|–—·]\s+|\s+-\s+/)[0] ?? t;
}

function removeChrome(document: Doc): void {
  for (const el of [...document.querySelectorAll(CHROME)]) el.remove();
  // The page's own <header> is chrome; a header inside the article holds its title.
  for (const el of [...document.querySelectorAll("header")]) {
    if (!el.closest("main, article, [role=main]")) el.remove();
  }
  for (const el of [...document.querySelectorAll("[id], [class]")]) {
    const names = `${el.getAttribute("id") ?? ""} ${el.getAttribute("class") ?? ""}`;
    if (BANNER.test(names) && !el.closest("main, article") && el.tagName !== "BODY") el.remove();
  }
}

function resolveLinks(document: Doc, pageUrl: string): void {
  for (const a of [...document.querySelectorAll("a[href]")]) {
    const href = a.getAttribute("href") ?? "";
    if (href.startsWith("#")) continue;
    const abs = absolute(href, pageUrl);
    if (abs) a.setAttribute("href", abs);
  }
  for (const img of [...document.querySelectorAll("img[src]")]) {
    const abs = absolute(img.getAttribute("src") ?? "", pageUrl);
    if (abs) img.setAttribute("src", abs);
  }
}

/**
 * `href` resolved against `base`. A base of the form "file:///…" stands for
 * a folder without a site URL: the result is then a root-relative path.
 */
export function absolute(href: string, base: string): string | null {
  try {
    const u = new URL(href, base);
    if (u.protocol === "file:" && base.startsWith("file:")) return u.pathname + u.search + u.hash;
    return u.href;
  } catch {
    return null;
  }
}
