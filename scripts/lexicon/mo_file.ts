/**
 * Reads a compiled gettext catalog (.mo): the original strings and their translations.
 * Used to build the bilingual lexicon from LibreOffice's interface strings; see
 * scripts/lexicon_from_libreoffice.ts.
 */

const MAGIC = 0x950412de;

/** One message of a catalog: its original text and the translation. */
export interface MoMessage {
  source: string;
  translation: string;
}

/**
 * The messages of a .mo file, with the context ("msgctxt\u0004") left out of each source and
 * only the first form of a plural kept; the header entry (empty source) is skipped. Throws on
 * a file that is not a catalog.
 */
export function readMoFile(bytes: Uint8Array): MoMessage[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 28) throw new Error("not a .mo file: too short");
  let little = true;
  if (view.getUint32(0, true) !== MAGIC) {
    if (view.getUint32(0, false) !== MAGIC) throw new Error("not a .mo file: bad magic number");
    little = false;
  }
  const u32 = (at: number) => view.getUint32(at, little);
  const count = u32(8);
  const sources = u32(12);
  const translations = u32(16);
  const decoder = new TextDecoder();
  const text = (table: number, i: number) => {
    const length = u32(table + i * 8);
    const offset = u32(table + i * 8 + 4);
    if (offset + length > bytes.byteLength) throw new Error("not a .mo file: string out of range");
    return decoder.decode(bytes.subarray(offset, offset + length));
  };
  const out: MoMessage[] = [];
  for (let i = 0; i < count; i++) {
    const rawSource = text(sources, i);
    if (!rawSource) continue;
    const source = rawSource.slice(rawSource.indexOf("\u0004") + 1).split("\0")[0];
    const translation = text(translations, i).split("\0")[0];
    out.push({ source, translation });
  }
  return out;
}
