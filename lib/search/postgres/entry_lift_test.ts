import assert from "node:assert/strict";
import { liftEntries } from "./entry_lift.ts";

const row = (title: string, score: number) => ({ title, lang: "en", score });

Deno.test("entry lift: the entry whose question holds the visitor's words passes a close neighbour", () => {
  const rows = [
    row("FAQ › Why are tuples immutable?", 1.0),
    row("FAQ › How do I copy an object?", 0.9),
    row("Library reference › copy", 0.8),
  ];
  const lifted = liftEntries(rows, "How do I copy an object in Python?");
  assert.deepEqual(lifted.map((r) => r.title), [
    "FAQ › How do I copy an object?",
    "FAQ › Why are tuples immutable?",
    "Library reference › copy",
  ]);
  // [0, 0] turns it off: the database's order stands.
  assert.deepEqual(liftEntries(rows, "How do I copy an object?", [0, 0]), rows);
});

Deno.test("entry lift: a far better plain passage stays first; rows past the head keep their place", () => {
  const rows = [row("Tutorial › Copying objects", 3.0), row("FAQ › How do I copy an object?", 1.0)];
  assert.equal(
    liftEntries(rows, "How do I copy an object?")[0].title,
    "Tutorial › Copying objects",
  );
  const long = Array.from({ length: 40 }, (_, i) => row(`Page ${i}`, 40 - i));
  long.push(row("FAQ › How do I copy an object?", 0.5));
  assert.equal(
    liftEntries(long, "How do I copy an object?").at(-1)!.title,
    "FAQ › How do I copy an object?",
  );
});
