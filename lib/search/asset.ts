/**
 * The binary index asset: "SSIX", a u32 format version, a u32 header length,
 * the JSON header, then 8-byte aligned sections. Reading makes typed-array
 * views over the one buffer; only the small term list is decoded eagerly.
 */
import { ANALYZER_ID } from "./analyzer.ts";
import { AssetFormatError } from "./errors.ts";
import { FORMAT_VERSION, type IndexData, type IndexHeader } from "./index_data.ts";
import { signWords } from "./quantize.ts";

const MAGIC = [0x53, 0x53, 0x49, 0x58]; // "SSIX"
const PREFIX = 12;
const ALIGN = 8;
const FIX = "rebuild it with `deno task index`";

type TypedArray = Uint8Array | Int8Array | Uint32Array | Float32Array;

/** Header as stored: the index header plus the section table. */
interface StoredHeader extends IndexHeader {
  totalBytes: number;
  sections: Record<string, [offset: number, byteLength: number]>;
}

const align = (n: number) => Math.ceil(n / ALIGN) * ALIGN;

/** Serialise an index into asset bytes. */
export function writeAsset(data: IndexData): Uint8Array {
  const p = data.postings;
  const parts: Array<[string, TypedArray]> = [
    ["terms", new TextEncoder().encode(p.terms.join("\n"))],
    ["postOffsets", p.postOffsets],
    ["postDocs", p.postDocs],
    ["postTfs", p.postTfs],
    ["docLens", p.docLens],
    ["docLangs", p.docLangs],
    ["strBytes", data.strings.bytes],
    ["strOffsets", data.strings.offsets],
  ];
  if (data.vectors) {
    parts.push(["vecValues", data.vectors.values], ["vecScales", data.vectors.scales], [
      "vecBits",
      data.vectors.bits,
    ]);
  }
  // The header stores absolute offsets, which depend on its own length: lay
  // out with a placeholder, then again until the length is stable.
  let headerBytes = new Uint8Array();
  let header: StoredHeader = { ...data.header, totalBytes: 0, sections: {} };
  for (let pass = 0; pass < 8; pass++) {
    let at = align(PREFIX + headerBytes.length);
    const sections: StoredHeader["sections"] = {};
    for (const [name, arr] of parts) {
      sections[name] = [at, arr.byteLength];
      at = align(at + arr.byteLength);
    }
    header = { ...data.header, totalBytes: at, sections };
    const next = new TextEncoder().encode(JSON.stringify(header));
    const stable = next.length === headerBytes.length;
    headerBytes = next;
    if (stable) break;
  }
  const out = new Uint8Array(header.totalBytes);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, FORMAT_VERSION, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, PREFIX);
  for (const [name, arr] of parts) {
    out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), header.sections[name][0]);
  }
  return out;
}

/** Parse asset bytes into views; throws AssetFormatError with the reason and the fix. */
export function readAsset(input: Uint8Array | ArrayBuffer): IndexData {
  let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  if (bytes.byteOffset % ALIGN !== 0) bytes = bytes.slice(); // typed views need alignment
  const header = readHeader(bytes, bytes.length);
  const section = sectionReader(bytes, header);
  const postings = readPostings(section, header);
  const strings = {
    bytes: section("strBytes", Uint8Array),
    offsets: section("strOffsets", Uint32Array),
  };
  const vectors = readVectors(section, header);
  const { totalBytes: _t, sections: _s, ...indexHeader } = header;
  return { header: indexHeader, postings, strings, vectors };
}

/** Bytes of the asset before its header: the magic, the format version, the header's length. */
export const ASSET_PREFIX_BYTES = PREFIX;

/** The header's length, read from the asset's first ASSET_PREFIX_BYTES bytes (0 when too few). */
export function assetHeaderLength(prefix: Uint8Array): number {
  if (prefix.length < PREFIX) return 0;
  return new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength).getUint32(8, true);
}

/**
 * Whether this server reads an asset of `fileBytes` bytes whose start is `head` (the prefix and
 * the header, no section): its magic, format version, length and analyzer. Throws the same
 * AssetFormatError as readAsset; a tool that only asks whether to rebuild need not read a
 * large asset whole.
 */
export function checkAssetHeader(head: Uint8Array, fileBytes: number): void {
  readHeader(head, fileBytes);
}

/**
 * The asset's header, once its magic, version, length and analyzer are what this server reads;
 * `fileBytes` is the whole asset's length, of which `bytes` may hold only the start.
 */
function readHeader(bytes: Uint8Array, fileBytes: number): StoredHeader {
  if (bytes.length < PREFIX || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new AssetFormatError(`Not a search index asset (bad magic or empty file): ${FIX}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== FORMAT_VERSION) {
    throw new AssetFormatError(
      `Index asset has format version ${version}, this server reads version ${FORMAT_VERSION}: ${FIX}`,
    );
  }
  const headerLen = view.getUint32(8, true);
  if (PREFIX + headerLen > bytes.length) {
    throw new AssetFormatError(
      `Index asset is truncated (${bytes.length} bytes, header cut off): ${FIX}`,
    );
  }
  let header: StoredHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + headerLen)));
  } catch {
    throw new AssetFormatError(`Index asset header is not valid JSON: ${FIX}`);
  }
  if (header.totalBytes !== fileBytes) {
    throw new AssetFormatError(
      `Index asset is truncated or padded: ${fileBytes} bytes, header says ${header.totalBytes}: ${FIX}`,
    );
  }
  if (header.analyzer !== ANALYZER_ID) {
    throw new AssetFormatError(
      `Index asset was built with analyzer "${header.analyzer}", this server uses "${ANALYZER_ID}": ${FIX}`,
    );
  }
  return header;
}

/** A typed view of one named section of the asset, checked against its bounds. */
type SectionReader = <T extends TypedArray>(
  name: string,
  Ctor: { new (b: ArrayBufferLike, o: number, l: number): T; BYTES_PER_ELEMENT: number },
) => T;

function sectionReader(bytes: Uint8Array, header: StoredHeader): SectionReader {
  const buf = bytes.buffer;
  const base = bytes.byteOffset;
  return (name, Ctor) => {
    const entry = header.sections?.[name];
    if (!entry) throw new AssetFormatError(`Index asset lacks section "${name}": ${FIX}`);
    const [offset, len] = entry;
    if (offset % ALIGN || offset + len > bytes.length || len % Ctor.BYTES_PER_ELEMENT) {
      throw new AssetFormatError(`Index asset section "${name}" is out of bounds: ${FIX}`);
    }
    return new Ctor(buf, base + offset, len / Ctor.BYTES_PER_ELEMENT);
  };
}

/** The BM25 postings, checked against the header's counts. */
function readPostings(section: SectionReader, header: StoredHeader): IndexData["postings"] {
  const termText = new TextDecoder().decode(section("terms", Uint8Array));
  const postings = {
    terms: termText ? termText.split("\n") : [],
    postOffsets: section("postOffsets", Uint32Array),
    postDocs: section("postDocs", Uint32Array),
    postTfs: section("postTfs", Float32Array),
    docLens: section("docLens", Float32Array),
    docLangs: section("docLangs", Uint8Array),
  };
  if (
    postings.terms.length !== header.counts.terms ||
    postings.postOffsets.length !== postings.terms.length + 1 ||
    postings.docLens.length !== header.counts.passages ||
    postings.postDocs.length !== header.counts.postings
  ) {
    throw new AssetFormatError(`Index asset counts do not match its header: ${FIX}`);
  }
  return postings;
}

/** The quantised passage vectors, when the index has an embedding; null otherwise. */
function readVectors(section: SectionReader, header: StoredHeader): IndexData["vectors"] {
  if (!header.embedding) return null;
  const n = header.counts.passages;
  const dims = header.embedding.dims;
  const vectors = {
    dims,
    count: n,
    values: section("vecValues", Int8Array),
    scales: section("vecScales", Float32Array),
    bits: section("vecBits", Uint32Array),
  };
  if (vectors.values.length !== n * dims || vectors.bits.length !== n * signWords(dims)) {
    throw new AssetFormatError(
      `Index asset vectors do not match ${n} passages × ${dims} dimensions: ${FIX}`,
    );
  }
  return vectors;
}
