import assert from "node:assert/strict";
import { frameUrl, OPEN_KEY, rememberOpen, wasOpen, widgetOptions } from "./options.ts";

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

Deno.test("open state: remembered for the next page in the host page's sessionStorage", () => {
  const map = new Map<string, string>();
  const session = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
  assert.equal(wasOpen(session), false);
  rememberOpen(session, true);
  assert.deepEqual([...map], [[OPEN_KEY, "1"]], "a flag, nothing else");
  assert.equal(wasOpen(session), true);
  rememberOpen(session, false);
  assert.equal(wasOpen(session), false);
  assert.equal(map.size, 0);
  const refusing = {
    getItem(): string | null {
      throw new DOMException("denied", "SecurityError");
    },
    setItem() {
      throw new DOMException("denied", "SecurityError");
    },
    removeItem() {
      throw new DOMException("denied", "SecurityError");
    },
  };
  rememberOpen(refusing, true);
  assert.equal(wasOpen(refusing), false);
  assert.equal(wasOpen(null), false);
});
