import assert from "node:assert/strict";
import { safeBackPath } from "./redirect.ts";

const here = new URL("http://host.test/lang/en");

Deno.test("safeBackPath: only same-origin paths with one leading slash", () => {
  const table: [string | null, string][] = [
    [null, "/"],
    ["", "/"],
    ["http://host.test/c/abc?x=1", "/c/abc?x=1"],
    ["http://host.test/", "/"],
    ["http://host.test//evil.example/x", "/"],
    ["http://host.test/\\evil.example/x", "/"],
    ["http://host.test/%5Cevil.example", "/%5Cevil.example"],
    ["http://host.test/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["http://host.test///evil.example", "/"],
    ["http://host.test/\t/evil.example", "/"],
    ["//evil.example/x", "/"],
    ["/relative/path", "/"],
    ["https://host.test/c/abc", "/"],
    ["http://evil.example/c/abc", "/"],
    ["http://host.test.evil.example/", "/"],
    ["http://host.test@evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["data:text/html,hi", "/"],
    ["not a url", "/"],
    ["http://[::1", "/"],
    ["http://host.test:80/sobre/x", "/sobre/x"],
  ];
  for (const [referer, expected] of table) {
    assert.equal(safeBackPath(referer, here), expected, JSON.stringify(referer));
  }
});

Deno.test("safeBackPath: the public site origin counts as ours", () => {
  assert.equal(
    safeBackPath("https://site.example/c/1", here, ["https://site.example"]),
    "/c/1",
  );
  assert.equal(safeBackPath("https://site.example//evil", here, ["https://site.example"]), "/");
});
