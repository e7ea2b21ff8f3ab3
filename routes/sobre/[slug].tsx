import { docPageRoute } from "@/lib/doc_page_route.tsx";

const route = docPageRoute("/sobre/");

/** A Portuguese corpus page: the manifest document whose url is /sobre/<slug>. */
export const handler = route.handler;
export default route.page;
