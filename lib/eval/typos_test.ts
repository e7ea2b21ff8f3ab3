import assert from "node:assert/strict";
import { withTypo } from "./typos.ts";

Deno.test("withTypo: two neighbouring letters of the longest word, near its middle", () => {
  assert.equal(withTypo("De onde veio o nome da linguagem?"), "De onde veio o nome da linugagem?");
  assert.equal(withTypo("How do I copy a file?"), "How do I copy a file?");
  assert.equal(withTypo("Why is Python installed?"), "Why is Python insatlled?");
  // A doubled letter would swap into itself: the pair before it is swapped.
  assert.equal(withTypo("A letter?"), "A lteter?");
  assert.notEqual(withTypo("Posso apagar o Python?"), "Posso apagar o Python?");
});
