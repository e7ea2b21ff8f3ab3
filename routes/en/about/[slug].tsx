import { docPageRoute } from "@/lib/doc_page_route.tsx";

const route = docPageRoute("/en/about/");

/** An English corpus page: the manifest document whose url is /en/about/<slug>. */
export const handler = route.handler;
export default route.page;
