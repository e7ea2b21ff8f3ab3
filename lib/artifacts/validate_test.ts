import assert from "node:assert/strict";
import { checkArtifactInput } from "./validate.ts";
import { MAX_ARTIFACT_BYTES } from "./types.ts";

const ok = { title: "Gráfico", kind: "html", content: "<p>oi</p>" };

Deno.test("artifact input: a valid input passes, trimmed, with its UTF-8 size", () => {
  const checked = checkArtifactInput({ ...ok, title: "  Gráfico ", artifactId: "chart-1" });
  assert.ok(checked.ok);
  assert.deepEqual(checked.input, {
    artifactId: "chart-1",
    title: "Gráfico",
    kind: "html",
    content: "<p>oi</p>",
  });
  assert.equal(checked.bytes, 9);
});

Deno.test("artifact input: 256 KiB is the limit, counted in UTF-8 bytes, with a message that names both sizes", () => {
  assert.ok(checkArtifactInput({ ...ok, content: "x".repeat(MAX_ARTIFACT_BYTES) }).ok);
  // 200 Ki characters of two bytes each: under the limit in characters, over it in bytes.
  const over = checkArtifactInput({ ...ok, content: "é".repeat(200 * 1024) });
  assert.ok(!over.ok);
  assert.equal(
    over.error,
    "Artifact not created: content is 400.0 KiB; the limit is 256.0 KiB. Make it smaller (less data, no embedded images) and call create_artifact again.",
  );
});

Deno.test("artifact input: each wrong field is named, with the fix", () => {
  const cases: [unknown, RegExp][] = [
    [null, /must be an object/],
    [{ ...ok, kind: "pdf" }, /kind "pdf" is not supported: use "html" or "svg"/],
    [{ ...ok, title: " " }, /title is missing/],
    [{ ...ok, title: "t".repeat(121) }, /title has 121 characters; keep it under 120/],
    [{ ...ok, content: "" }, /content is empty/],
    [{ ...ok, content: 5 }, /content is empty/],
    [{ ...ok, artifactId: "../etc" }, /artifactId "..\/etc" is not valid/],
    [{ ...ok, kind: "svg", content: "<p>no svg</p>" }, /has no <svg> element/],
  ];
  for (const [input, message] of cases) {
    const checked = checkArtifactInput(input);
    assert.ok(!checked.ok, JSON.stringify(input));
    assert.match(checked.error, message);
    assert.match(checked.error, /^Artifact not created: /);
  }
});
