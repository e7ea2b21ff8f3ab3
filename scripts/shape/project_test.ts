/**
 * Tests for the import-graph test: a tree with a planted cycle or a planted upward import
 * fails it, through the same `deno info` reading and table parsing the real check uses.
 */
import assert from "node:assert/strict";
import { checkProjectShape, violationKey } from "./project.ts";
import { findCycles, layerOf, parseLayerTable } from "./layers.ts";

const TABLE = `# Architecture

<!-- layers:begin -->
| layer | side | paths | what |
| --- | --- | --- | --- |
| 1 protocol | shared | \`lib/protocol/\` | wire types |
| 3 domain | server | \`lib/store/\` | storage |
| 6 application | server | \`lib/chat/\` | the turn |
| 7 edge | server | \`routes/\` \`main.ts\` | entries |
| 4 client | browser | \`lib/client/\` | browser chat |
<!-- layers:end -->
`;

async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "shape_tree_" });
  const all: Record<string, string> = {
    "deno.json": JSON.stringify({ imports: { "@/": "./" } }),
    "docs/architecture.md": TABLE,
    "lib/protocol/message.ts": "export interface Message { id: string }\n",
    "lib/store/chats.ts":
      'import type { Message } from "@/lib/protocol/message.ts";\nexport const save = (m: Message) => m.id;\n',
    "lib/chat/turn.ts":
      'import { save } from "@/lib/store/chats.ts";\nexport const turn = () => save({ id: "a" });\n',
    "lib/chat/turn_test.ts": 'import "@/main.ts";\n',
    "lib/client/chat.ts":
      'import type { Message } from "../protocol/message.ts";\nexport type M = Message;\n',
    "main.ts": 'import { turn } from "@/lib/chat/turn.ts";\nturn();\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/") + 1) || "."}`, {
      recursive: true,
    });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
  return root;
}

Deno.test("a tree that keeps its layers passes, tests left out", async () => {
  const root = await tree({});
  try {
    const report = await checkProjectShape(root);
    assert.equal(report.modules, 5);
    assert.deepEqual(report.violations, []);
    assert.deepEqual(report.cycles, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a planted upward import fails it, also when it imports only a type", async () => {
  const root = await tree({
    "lib/store/chats.ts":
      'import type { turn } from "@/lib/chat/turn.ts";\nexport type T = typeof turn;\nexport const save = (m: unknown) => m;\n',
  });
  try {
    const report = await checkProjectShape(root);
    assert.deepEqual(report.violations.map(violationKey), [
      "lib/store/chats.ts → lib/chat/turn.ts",
    ]);
    assert.match(report.violations[0].reason, /^upward: domain \(3\) → application \(6\)/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a planted cycle fails it, a dynamic import included", async () => {
  const root = await tree({
    "lib/chat/title.ts": 'import { turn } from "./turn.ts";\nexport const title = () => turn;\n',
    "lib/chat/turn.ts":
      'import { save } from "@/lib/store/chats.ts";\nexport const turn = () => save({ id: "a" });\nexport const later = () => import("./title.ts");\n',
  });
  try {
    const report = await checkProjectShape(root);
    assert.deepEqual(report.violations, []);
    assert.deepEqual(report.cycles, [["lib/chat/title.ts", "lib/chat/turn.ts"]]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("browser code importing a server module and a module outside the table fail it", async () => {
  const root = await tree({
    "lib/client/chat.ts": 'import { save } from "@/lib/store/chats.ts";\nexport const s = save;\n',
    "lib/stray.ts": "export const x = 1;\n",
  });
  try {
    const report = await checkProjectShape(root);
    assert.deepEqual(report.violations.map((v) => `${violationKey(v)} (${v.reason})`), [
      "lib/stray.ts → lib/stray.ts (not in the layer table)",
      "lib/client/chat.ts → lib/store/chats.ts (browser client → server domain)",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the table: longest path wins; a bad side or an empty row is a clear error", () => {
  const layers = parseLayerTable(TABLE);
  assert.equal(layerOf("lib/chat/engine/run.ts", layers)?.name, "application");
  assert.equal(layerOf("main.ts", layers)?.name, "edge");
  assert.equal(layerOf("main_x.ts", layers), null);
  assert.throws(() => parseLayerTable("no table"), /No layer table/);
  assert.throws(
    () => parseLayerTable(TABLE.replace("| shared | `lib/protocol/`", "| both | `lib/protocol/`")),
    /side "both" is not one of shared, server, browser/,
  );
  assert.throws(
    () => parseLayerTable(TABLE.replace("`lib/store/`", "store")),
    /Layer "domain" lists no paths/,
  );
});

Deno.test("findCycles reports each cycle once, also a long one", () => {
  const chain = Array.from({ length: 5000 }, (_, i) => `m${String(i).padStart(4, "0")}.ts`);
  const edges = chain.map((from, i) => ({
    from,
    to: chain[(i + 1) % chain.length],
    typeOnly: false,
    dynamic: false,
  }));
  const cycles = findCycles(chain, edges);
  assert.equal(cycles.length, 1);
  assert.equal(cycles[0].length, 5000);
  assert.deepEqual(findCycles(chain, edges.slice(1)), []);
});
