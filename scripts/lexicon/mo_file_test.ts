import assert from "node:assert/strict";
import { readMoFile } from "./mo_file.ts";

/** A .mo catalog of `entries`, laid out as msgfmt writes it (no hash table). */
function moFile(entries: Array<[string, string]>, littleEndian = true): Uint8Array {
  const enc = new TextEncoder();
  const sources = entries.map(([s]) => enc.encode(s));
  const targets = entries.map(([, t]) => enc.encode(t));
  const headerSize = 28;
  const tablesSize = entries.length * 16;
  let offset = headerSize + tablesSize;
  const bytes = new Uint8Array(
    offset + [...sources, ...targets].reduce((n, b) => n + b.length + 1, 0),
  );
  const view = new DataView(bytes.buffer);
  const put = (at: number, value: number) => view.setUint32(at, value, littleEndian);
  put(0, 0x950412de);
  put(8, entries.length);
  put(12, headerSize);
  put(16, headerSize + entries.length * 8);
  [sources, targets].forEach((list, table) => {
    list.forEach((b, i) => {
      const at = headerSize + table * entries.length * 8 + i * 8;
      put(at, b.length);
      put(at + 4, offset);
      bytes.set(b, offset);
      offset += b.length + 1;
    });
  });
  return bytes;
}

Deno.test("readMoFile: sources and translations, without the header, contexts or plural forms", () => {
  const file = moFile([
    ["", "Content-Type: text/plain; charset=UTF-8\n"],
    ["menu\u0004Open file", "Abrir arquivo"],
    ["%d row\0%d rows", "%d linha\0%d linhas"],
  ]);
  assert.deepEqual(readMoFile(file), [
    { source: "Open file", translation: "Abrir arquivo" },
    { source: "%d row", translation: "%d linha" },
  ]);
});

Deno.test("readMoFile: big-endian catalogs read the same", () => {
  const file = moFile([["Save", "Salvar"]], false);
  assert.deepEqual(readMoFile(file), [{ source: "Save", translation: "Salvar" }]);
});

Deno.test("readMoFile: a file that is not a catalog is refused", () => {
  assert.throws(
    () => readMoFile(new TextEncoder().encode("not a catalog at all, just text")),
    /bad magic/,
  );
  assert.throws(() => readMoFile(new Uint8Array(4)), /too short/);
});
