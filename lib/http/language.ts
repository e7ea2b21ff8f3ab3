import type { Locale } from "@/lib/i18n/mod.ts";

/**
 * A 303 to `location` that keeps `code` as the visitor's UI language for a year (the `lang`
 * cookie the root middleware reads first): what /lang/:code and /en answer.
 */
export function languageRedirect(code: Locale, location: string, secure: boolean): Response {
  return new Response(null, {
    status: 303,
    headers: {
      Location: location,
      "Set-Cookie": `lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax${
        secure ? "; Secure" : ""
      }`,
    },
  });
}
