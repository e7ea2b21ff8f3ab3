import assert from "node:assert/strict";
import { frameUrl, widgetOptions } from "./options.ts";

Deno.test("widgetOptions: data- attributes set language, position and agent", () => {
  const src = "https://assistant.example/widget.js?v=1";
  assert.deepEqual(widgetOptions(src, {}), {
    origin: "https://assistant.example",
    locale: "pt-BR",
    position: "bottom-right",
    agent: null,
  });
  const set = widgetOptions(src, { lang: "en", position: "bottom-left", agent: "contact" });
  assert.deepEqual([set.locale, set.position, set.agent], ["en", "bottom-left", "contact"]);
  assert.equal(widgetOptions(src, {}, "en-GB").locale, "en", "the page's lang as fallback");
  assert.equal(widgetOptions(src, { lang: "pt-BR" }, "en").locale, "pt-BR", "data-lang wins");
  assert.equal(widgetOptions(src, { agent: "../x?y" }).agent, null, "not an id");
  assert.equal(
    frameUrl(set),
    "https://assistant.example/widget?lang=en&agent=contact",
  );
});
