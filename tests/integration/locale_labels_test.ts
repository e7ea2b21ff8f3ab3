/**
 * Each UI language is consistent: with English chosen, the page, the agent picker, the
 * answers' labels, the approval card and the model picker show the English form of every
 * label the config and the model catalog give per language, and no Portuguese form (and
 * the other way round).
 */
import assert from "node:assert/strict";
import type { AgentConfig } from "@/lib/agents/types.ts";
import { localize, type LocalizedText } from "@/lib/i18n/localized.ts";
import type { Locale } from "@/lib/i18n/mod.ts";
import { CATALOG } from "@/lib/models/catalog.ts";
import { ask } from "../support/agent_app.ts";
import { SHOP, twoAgents } from "../support/agents.ts";
import { CookieJar, newChatId, testConfig } from "../support/chat_client.ts";
import { startTestServer } from "../support/server.ts";

const RECADO =
  "Manda um recado pro dono do site dizendo que adorei o site. Meu nome é Ana e meu email é ana@example.com";

const OTHER: Record<Locale, Locale> = { "pt-BR": "en", en: "pt-BR" };

/** Every per-language text of the config, the test's shop agent and the catalog's labels. */
function perLanguageTexts(): LocalizedText[] {
  const config = testConfig();
  const agents: AgentConfig[] = [...config.agents ?? [], SHOP];
  const texts = [
    config.site.name,
    ...agents.flatMap((a) => [a.name, a.description]),
    ...CATALOG.map((m) => m.label),
  ];
  return texts.filter((t) => typeof t !== "string" && t["pt-BR"] !== t.en);
}

/** What a page shows: its markup without scripts (saved messages ride there as data), decoded. */
function shown(html: string): string {
  return html.replace(/<script\b[\s\S]*?<\/script>/g, "")
    .replaceAll("&#39;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

/** Fails when `html` (in `locale`) shows the other language's form of a label. */
function assertOneLanguage(html: string, locale: Locale, where: string) {
  const page = shown(html);
  for (const text of perLanguageTexts()) {
    const wrong = localize(text, OTHER[locale]);
    assert.ok(!page.includes(wrong), `${where} in ${locale} shows "${wrong}"`);
  }
}

Deno.test("locale labels: the shipped config and the catalog give every label in both languages", () => {
  const config = testConfig();
  assert.equal(typeof config.site.name, "object", "site.name per language");
  for (const agent of config.agents ?? []) {
    assert.equal(typeof agent.name, "object", `${agent.id}: name per language`);
    assert.equal(typeof agent.description, "object", `${agent.id}: description per language`);
  }
  const offline = CATALOG.find((m) => m.id === "local")!;
  assert.notEqual(localize(offline.label, "en"), localize(offline.label, "pt-BR"));
});

Deno.test("locale labels: / and /api/models in English show no Portuguese label, and back", async () => {
  const server = await startTestServer({
    config: testConfig(),
    services: { agents: await twoAgents() },
  });
  try {
    for (const locale of ["en", "pt-BR"] as const) {
      const headers = { "accept-language": locale === "en" ? "en-US,en;q=0.9" : "pt-BR" };
      const html = await (await fetch(`${server.url}/`, { headers })).text();
      assert.match(html, new RegExp(`<html lang="${locale}"`));
      const name = localize(testConfig().site.name, locale);
      assert.ok(html.includes(`<span class="brand-name">${name}</span>`), `site name ${name}`);
      assert.ok(html.includes(`— ${name}</title>`));
      for (const agent of [...testConfig().agents ?? [], SHOP]) {
        assert.ok(html.includes(`>${localize(agent.name, locale)}</option>`), "picker option");
        const title = localize(agent.description, locale);
        assert.ok(shown(html).includes(`title="${title}"`), `picker hint ${title}`);
      }
      assertOneLanguage(html, locale, "/");

      const res = await fetch(`${server.url}/api/models`, { headers });
      const { models } = await res.json() as {
        models: { id: string; label: string; labels: Record<Locale, string> }[];
      };
      const offline = models.find((m) => m.id === "local")!;
      const want = localize(CATALOG.find((m) => m.id === "local")!.label, locale);
      assert.equal(offline.label, want);
      // The picker shows the page's language, whatever the browser's: both are given.
      assert.equal(offline.labels[locale], want);
      assertOneLanguage(JSON.stringify(models.map((m) => m.label)), locale, "/api/models");
    }
  } finally {
    await server.close();
  }
});

Deno.test("locale labels: the approval card names the agent in the page's language", async () => {
  const server = await startTestServer();
  try {
    // Asked in Portuguese, then the page viewed in English (the `lang` cookie), and back.
    const jar = new CookieJar();
    const id = newChatId();
    const { approvals } = await ask(server.url, jar, id, RECADO);
    assert.equal(approvals.length, 1);
    const contact = testConfig().agents![0];
    assert.notEqual(localize(contact.name, "en"), localize(contact.name, "pt-BR"));
    for (const locale of ["en", "pt-BR"] as const) {
      jar.cookies.set("lang", locale);
      const page = await (await jar.fetch(`${server.url}/c/${id}`)).text();
      const intro = /<p[^>]*class="approval-intro"[^>]*>([^<]*)</.exec(page)?.[1] ??
        /<section[^>]*class="approval-card[\s\S]*?<p[^>]*>([^<]*)</.exec(page)?.[1] ?? "";
      assert.ok(
        intro.includes(localize(contact.name, locale)),
        `the card in ${locale} names the agent: ${intro}`,
      );
      assertOneLanguage(page, locale, "/c/:id with an approval");
    }
    // The descriptor saved with an English turn carries the English name.
    const enJar = new CookieJar();
    enJar.cookies.set("lang", "en");
    const en = await ask(server.url, enJar, newChatId(), RECADO);
    const descriptor = en.approvals[0].approvalDescriptor as { agentName: string };
    assert.equal(descriptor.agentName, localize(contact.name, "en"));
  } finally {
    await server.close();
  }
});
