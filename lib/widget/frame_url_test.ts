import assert from "node:assert/strict";
import { chatInFrameUrl, widgetChatPath } from "./frame_url.ts";

Deno.test("frame url: names the chat and keeps the loader's parameters", () => {
  const base = "http://127.0.0.1:8000/widget?lang=en&agent=site";
  assert.equal(widgetChatPath(base, "c0123456789"), "/widget?lang=en&agent=site&chat=c0123456789");
  const named = `http://127.0.0.1:8000${widgetChatPath(base, "c0123456789")}`;
  assert.equal(widgetChatPath(named, "cAAAAAAAAAA"), "/widget?lang=en&agent=site&chat=cAAAAAAAAAA");
  assert.equal(widgetChatPath(named, null), "/widget?lang=en&agent=site");
  // Even from another path (the frame only ever shows /widget).
  assert.equal(
    widgetChatPath("http://h/c/x?lang=pt-BR", "c0123456789"),
    "/widget?lang=pt-BR&chat=c0123456789",
  );
});

Deno.test("frame url: reads only a chat id", () => {
  assert.equal(chatInFrameUrl("http://h/widget?lang=en&chat=c0123456789"), "c0123456789");
  assert.equal(chatInFrameUrl("http://h/widget?lang=en"), null);
  assert.equal(chatInFrameUrl("http://h/widget?chat=../../x"), null);
  assert.equal(chatInFrameUrl("http://h/widget?chat=short"), null);
});
