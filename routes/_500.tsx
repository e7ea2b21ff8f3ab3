import { define } from "@/lib/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ErrorPage } from "@/components/ErrorPage.tsx";

/**
 * Shown when a page fails (5xx, detail only in development) or refuses a request
 * (4xx other than 404: a foreign origin, an oversized form…, with the reason).
 */
export default define.page<{ status: number; message?: string }>(
  function ServerError({ state, data }) {
    const t = messages(localeOf(state));
    const status = data?.status ?? 500;
    const refused = status >= 400 && status < 500;
    return (
      <ErrorPage
        status={status}
        title={refused ? t.refusedTitle : t.errorTitle}
        body={refused ? t.refusedBody : t.errorBody}
        back={t.backHome}
        detail={data?.message}
      />
    );
  },
);
