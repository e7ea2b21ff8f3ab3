import assert from "node:assert/strict";
import { httpLink, sourceLink } from "./source_link.ts";

const SITE = "https://site.example";

Deno.test("only http(s) URLs of the site's own origins become source links", () => {
  assert.equal(sourceLink("/sobre#a", SITE), "https://site.example/sobre#a");
  assert.equal(sourceLink("https://site.example/x", SITE), "https://site.example/x");
  assert.equal(
    sourceLink("https://docs.example/y", SITE, ["https://docs.example"]),
    "https://docs.example/y",
  );
  for (
    const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\nscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "https://evil.example/x",
      "//evil.example/x",
      "/\\evil.example/x",
      "https://site.example@evil.example/",
      "https://user:pw@site.example/",
      "sobre",
      "",
      "http://site.example/", // another origin: the scheme is part of it
    ]
  ) {
    assert.equal(sourceLink(bad, SITE), null, JSON.stringify(bad));
  }
  assert.equal(httpLink("https://any.example/p"), "https://any.example/p");
  for (const bad of ["javascript:alert(1)", "/relative", "data:,x", "ftp://x.example/"]) {
    assert.equal(httpLink(bad), null, bad);
  }
});
