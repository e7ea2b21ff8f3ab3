/**
 * FAQ pages written as accordions, tabs or script-driven panels, read as the FAQ entries
 * they are.
 *
 * Most FAQ pages fold their answers away: the W3C's accordion pattern (a `<button
 * aria-expanded aria-controls>` in a heading, the panel `hidden`), Bootstrap's collapse
 * (`data-bs-toggle="collapse"`), script panels (`style="display:none"`, `aria-hidden`),
 * `hidden="until-found"`, tab panels, and buttons or checkbox labels toggled without ARIA. An
 * import that drops hidden content and buttons as page chrome keeps neither the questions nor
 * the answers. Here, before the chrome goes, each panel is shown and its label becomes a
 * heading or a bold question line (faq_lines.ts), which the chunker reads as an FAQ entry
 * (lib/search/chunker.ts).
 */
import {
  asText,
  type Doc,
  type El,
  flatten,
  HEADING,
  isHidden,
  labelBlock,
  show,
  textUpTo,
} from "./faq_lines.ts";

const TRIGGER = "[aria-controls][aria-expanded], [data-bs-toggle=collapse], [data-toggle=collapse]";
// Menus, listboxes and dialogs are disclosed too, but they are chrome, not content.
const NOT_CONTENT = /^(menu|menubar|listbox|dialog|alertdialog|tooltip|tree|grid)$/i;

/** The page's elements by id, read once (a lookup by id walks the whole tree each time). */
function idsOf(document: Doc): Map<string, El> {
  const ids = new Map<string, El>();
  for (const el of [...document.querySelectorAll("[id]")] as El[]) {
    const id = el.getAttribute("id");
    if (id && !ids.has(id)) ids.set(id, el);
  }
  return ids;
}

/** The panels a trigger discloses: `aria-controls` ids, else its Bootstrap target. */
function panelsOf(byId: ReadonlyMap<string, El>, trigger: El): El[] {
  const ids = (trigger.getAttribute("aria-controls") ?? "").split(/\s+/).filter(Boolean);
  if (!ids.length) {
    const target = trigger.getAttribute("data-bs-target") ?? trigger.getAttribute("data-target") ??
      trigger.getAttribute("href") ?? "";
    if (/^#[\w-]+$/.test(target)) ids.push(target.slice(1));
  }
  return ids.map((id) => byId.get(id)).filter((el): el is El => el !== undefined);
}

const TAB = "[role=tab], [data-bs-toggle=tab], [data-bs-toggle=pill], [data-toggle=tab], " +
  "[data-toggle=pill]";

/**
 * Tabbed FAQs ("Pagamento | Entrega | Trocas"): every tab panel is shown under its tab's name
 * as a heading, and the tab list, whose names now head the panels, goes.
 */
function openTabs(document: Doc, byId: ReadonlyMap<string, El>): number {
  let shown = 0;
  const seen = new Set<El>();
  const lists = new Map<El, boolean>();
  for (const tab of [...document.querySelectorAll(TAB)] as El[]) {
    const panel = panelsOf(byId, tab)[0];
    const list = tab.closest("[role=tablist]") as El | null;
    const usable = panel && !NOT_CONTENT.test(panel.getAttribute("role") ?? "") &&
      !tab.contains(panel as never) && !panel.contains(tab as never);
    if (list) lists.set(list, (lists.get(list) ?? true) && Boolean(usable));
    // Each panel once: a crafted page can point thousands of tabs at one large panel.
    if (!usable || seen.has(panel)) continue;
    seen.add(panel);
    show(panel);
    shown++;
    const label = textUpTo(tab);
    // Under the page's title; a panel with headings of that level already keeps its own.
    if (label && !panel.querySelector("h1, h2")) {
      const heading = document.createElement("h2");
      heading.textContent = label;
      panel.insertBefore(heading, panel.firstChild);
    }
  }
  for (const [list, all] of lists) if (all) list.remove();
  return shown;
}

/**
 * Shows every disclosed panel of the page's content and turns each trigger into text.
 * Returns how many panels were shown.
 */
export function openDisclosures(document: Doc): number {
  const byId = idsOf(document);
  let shown = openTabs(document, byId);
  for (const el of [...document.querySelectorAll('[hidden="until-found"]')] as El[]) {
    show(el);
    shown++;
  }
  for (const trigger of [...document.querySelectorAll(TRIGGER)] as El[]) {
    if (
      trigger.getAttribute("aria-haspopup") || trigger.closest("nav, [role=navigation]") ||
      trigger.matches(TAB)
    ) continue;
    const panels = panelsOf(byId, trigger).filter((p) =>
      !NOT_CONTENT.test(p.getAttribute("role") ?? "") && p.tagName !== "NAV" &&
      p.tagName !== "DIALOG"
    );
    if (!panels.length) continue;
    for (const panel of panels) show(panel);
    shown += panels.length;
    const label = textUpTo(trigger);
    if (!label || panels.some((p) => trigger.contains(p as never))) continue;
    const heading = trigger.closest(HEADING) as El | null;
    const body = document.body as El;
    const line = asText(document, labelBlock(trigger, body), label, heading);
    if (panels.length === 1) flatten(line, panels[0], body);
  }
  return shown;
}

/** Controls a script or a stylesheet toggles without ARIA: a button, a checkbox's label. */
const QUESTION_CONTROL = "button, [role=button], label[for], [onclick]";

/**
 * FAQs toggled by a script or by CSS alone (`<button class="faq-q">Posso…?</button>`, a
 * checkbox's `<label>`): a control whose text is a question is the entry's question, turned
 * into a bold question line (a button would go with the page's other buttons), and the hidden
 * element right after it, its answer, is shown.
 */
export function openQuestionControls(document: Doc): number {
  const body = document.body as El | null;
  if (!body) return 0;
  let shown = 0;
  for (const control of [...document.querySelectorAll(QUESTION_CONTROL)] as El[]) {
    if (!control.isConnected || control.closest("nav, form, [role=navigation], [role=dialog]")) {
      continue;
    }
    const label = textUpTo(control);
    if (!label?.endsWith("?")) continue;
    const block = labelBlock(control, body);
    const answer = block.nextElementSibling as El | null;
    const line = asText(document, block, label, control.closest(HEADING) as El | null);
    if (answer && isHidden(answer)) {
      show(answer);
      shown++;
      flatten(line, answer, body);
    }
  }
  return shown;
}
