import assert from "node:assert/strict";
import { prefersMarkdown } from "./markdown_page.ts";

const wants = (accept: string) =>
  prefersMarkdown(new Request("http://x/", { headers: { accept } }));

Deno.test("prefersMarkdown: only an explicit text/markdown at least as wanted as HTML", () => {
  assert.equal(wants("text/markdown"), true);
  assert.equal(wants("text/markdown, text/html;q=0.9"), true);
  assert.equal(wants("text/html, text/markdown"), true);
  assert.equal(wants("text/html, text/markdown;q=0.5"), false);
  assert.equal(wants("text/markdown;q=0"), false);
  assert.equal(wants("text/html,application/xhtml+xml,*/*;q=0.8"), false);
  assert.equal(wants("*/*"), false);
  assert.equal(wants(""), false);
});
