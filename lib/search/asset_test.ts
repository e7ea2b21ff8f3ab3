import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ASSET_PREFIX_BYTES,
  assetHeaderLength,
  checkAssetHeader,
  readAsset,
  writeAsset,
} from "./asset.ts";
import { AssetFormatError, SearchUnavailableError } from "./errors.ts";
import { buildIndexData, FORMAT_VERSION, type PassageInput } from "./index_data.ts";
import { loadSiteSearch } from "./mod.ts";
import { tempDir } from "@/tests/support/temp.ts";

const passages: PassageInput[] = [
  {
    id: "a#x",
    docId: "a",
    title: "Sobre › Privacidade",
    url: "/sobre#x",
    lang: "pt",
    text: "Conversas guardadas por 30 dias.",
  },
  {
    id: "b#y",
    docId: "b",
    title: "About › Privacy",
    url: null,
    lang: "en",
    text: "Chats are kept for 30 days.",
  },
];
const vectors = [Float32Array.of(1, 0, 0, 0.5), Float32Array.of(0, 1, 0.2, 0)];

Deno.test("asset round trip keeps header, postings, strings and vectors", () => {
  const data = buildIndexData(passages, { vectors, embeddingModel: "test:m", contentHash: "abc" });
  const back = readAsset(writeAsset(data));
  assert.deepEqual(back.header, data.header);
  assert.deepEqual(back.postings.terms, data.postings.terms);
  assert.deepEqual([...back.postings.postDocs], [...data.postings.postDocs]);
  assert.deepEqual([...back.postings.postTfs], [...data.postings.postTfs]);
  assert.deepEqual([...back.strings.bytes], [...data.strings.bytes]);
  assert.deepEqual([...back.vectors!.values], [...data.vectors!.values]);
  assert.deepEqual([...back.vectors!.scales], [...data.vectors!.scales]);
  assert.deepEqual([...back.vectors!.bits], [...data.vectors!.bits]);
});

Deno.test("reading makes views over the one buffer, not copies", () => {
  const bytes = writeAsset(buildIndexData(passages, { vectors, embeddingModel: "test:m" }));
  const back = readAsset(bytes);
  assert.equal(back.postings.postDocs.buffer, bytes.buffer);
  assert.equal(back.vectors!.values.buffer, bytes.buffer);
  assert.equal(back.strings.bytes.buffer, bytes.buffer);
});

Deno.test("corrupted assets are rejected with the fix", () => {
  const good = writeAsset(buildIndexData(passages));
  assert.throws(
    () => readAsset(good.slice(0, good.length - 3)),
    (e) => e instanceof AssetFormatError && /truncated/.test(e.message),
  );
  assert.throws(() => readAsset(good.slice(0, 20)), /truncated/);
  assert.throws(() => readAsset(new Uint8Array()), /bad magic/);
  const magic = good.slice();
  magic[0] = 0x58;
  assert.throws(() => readAsset(magic), /bad magic.*deno task index/);
  const version = good.slice();
  new DataView(version.buffer).setUint32(4, FORMAT_VERSION + 1, true);
  assert.throws(() => readAsset(version), new RegExp(`format version ${FORMAT_VERSION + 1}`));
});

Deno.test("an asset's header alone tells whether this server reads it", () => {
  const good = writeAsset(buildIndexData(passages, { vectors, embeddingModel: "test:m" }));
  const head = good.subarray(0, ASSET_PREFIX_BYTES + assetHeaderLength(good));
  assert.ok(head.length < good.length);
  checkAssetHeader(head, good.length);
  assert.throws(() => checkAssetHeader(head, good.length - 8), /truncated or padded/);
  assert.throws(() => checkAssetHeader(head.subarray(0, 20), good.length), /header cut off/);
  const version = head.slice();
  new DataView(version.buffer).setUint32(4, FORMAT_VERSION + 1, true);
  assert.throws(() => checkAssetHeader(version, good.length), /format version/);
  assert.equal(assetHeaderLength(good.subarray(0, 4)), 0);
});

Deno.test("loadSiteSearch: a bad asset makes the search unavailable, not broken", async () => {
  const dir = mkdtempSync(join(tempDir(), "asset-"));
  const good = writeAsset(buildIndexData(passages));
  const truncated = join(dir, "t.bin");
  writeFileSync(truncated, good.slice(0, good.length - 10));
  for (const assetPath of [truncated, join(dir, "missing.bin")]) {
    const s = loadSiteSearch({ assetPath });
    const st = s.status();
    assert.equal(st.status, "unavailable");
    assert.match((st as { error: string }).error, /deno task index/);
    await assert.rejects(() => s.search("x"), SearchUnavailableError);
  }
  const okPath = join(dir, "ok.bin");
  writeFileSync(okPath, good);
  const s = loadSiteSearch({ assetPath: okPath });
  assert.deepEqual(s.status(), {
    status: "ok",
    passages: 2,
    documents: 2,
    mode: "lexical",
    embeddingModel: null,
  });
  const r = await s.search("privacidade", { k: 3 });
  assert.equal(r.mode, "lexical");
  assert.equal(r.passages[0].id, "a#x");
  assert.equal(r.passages[0].n, 1);
});
