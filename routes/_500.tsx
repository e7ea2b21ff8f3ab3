import { define } from "@/lib/http/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ErrorPage } from "@/components/ErrorPage.tsx";

/** Shown when a page fails; the detail only in development. */
export default define.page<{ status: number; message?: string }>(
  function ServerError({ state, data }) {
    const t = messages(localeOf(state));
    return (
      <ErrorPage
        status={500}
        title={t.errorTitle}
        body={t.errorBody}
        back={t.backHome}
        detail={data?.message}
      />
    );
  },
);
