import { define } from "@/lib/define.ts";
import { localeOf } from "@/lib/http/locale.ts";
import { messages } from "@/lib/i18n/mod.ts";
import { ErrorPage } from "@/components/ErrorPage.tsx";

/** Shown for every unknown page (API paths answer JSON instead). */
export default define.page(function NotFound({ state }) {
  const t = messages(localeOf(state));
  return <ErrorPage status={404} title={t.notFoundTitle} body={t.notFoundBody} back={t.backHome} />;
});
