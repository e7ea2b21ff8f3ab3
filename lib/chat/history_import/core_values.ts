/**
 * Reading the values inside AI SDK 4 messages: objects, times, image and file payloads, tool
 * results that are errors.
 */

/** A JSON object. */
export type Obj = Record<string, unknown>;

/** Whether `v` is a JSON object (not an array, not null). */
export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Epoch ms from an ISO string or a number; undefined when absent; NaN when unreadable. */
export function parseTime(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number") return Number.isFinite(v) && v > 0 ? v : NaN;
  if (typeof v === "string") return Date.parse(v);
  return NaN;
}

function bytesToBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** Bytes as JSON.stringify leaves them: a Node Buffer `{type:"Buffer",data}`, an array, or `{"0":..}`. */
function serializedBytes(v: unknown): Uint8Array | null {
  let values: unknown[] | null = null;
  if (Array.isArray(v)) values = v;
  else if (isObj(v) && v.type === "Buffer" && Array.isArray(v.data)) values = v.data;
  else if (isObj(v)) {
    const keys = Object.keys(v);
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) values = Object.values(v);
  }
  if (!values) return null;
  if (!values.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)) {
    return null;
  }
  return Uint8Array.from(values as number[]);
}

function sniffImageType(base64: string): string | undefined {
  if (base64.startsWith("iVBORw0KGgo")) return "image/png";
  if (base64.startsWith("/9j/")) return "image/jpeg";
  if (base64.startsWith("R0lGOD")) return "image/gif";
  if (base64.startsWith("UklGR")) return "image/webp";
  return undefined;
}

/** A string payload as a URL, with the media type it names; a problem when it is neither URL nor base64. */
function stringFileUrl(
  data: string,
  declared: string | undefined,
  kind: "image" | "file",
): { url: string; mediaType: string | undefined } | string {
  const dataUrl = /^data:([^;,]*)[^,]*,/i.exec(data);
  if (dataUrl) return { url: data, mediaType: declared ?? (dataUrl[1] || undefined) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(data) && URL.canParse(data)) {
    return { url: data, mediaType: declared };
  }
  const clean = data.replace(/\s+/g, "");
  if (!clean || !/^[A-Za-z0-9+/]+={0,2}$/.test(clean)) {
    return `"${kind === "image" ? "image" : "data"}" is neither a URL nor base64`;
  }
  const mediaType = kind === "image" ? declared ?? sniffImageType(clean) ?? "image/*" : declared;
  return { url: `data:${mediaType ?? "application/octet-stream"};base64,${clean}`, mediaType };
}

/**
 * The URL and media type of an AI SDK 4 image or file payload, or a problem.
 * `kind` is "image" (media type optional) or "file" (media type required, as in AI SDK 4).
 */
export function toFileUrl(
  data: unknown,
  declaredType: unknown,
  kind: "image" | "file",
): { url: string; mediaType: string } | string {
  if (declaredType !== undefined && (typeof declaredType !== "string" || !declaredType)) {
    return `"mimeType" must be a non-empty string`;
  }
  let mediaType = declaredType as string | undefined;
  let url: string;
  if (typeof data === "string") {
    const read = stringFileUrl(data, mediaType, kind);
    if (typeof read === "string") return read;
    ({ url, mediaType } = read);
  } else {
    const bytes = serializedBytes(data);
    if (!bytes) {
      return `"${kind === "image" ? "image" : "data"}" must be a URL, base64 or serialized bytes`;
    }
    const base64 = bytesToBase64(bytes);
    if (kind === "image") mediaType ??= sniffImageType(base64) ?? "image/*";
    url = `data:${mediaType ?? "application/octet-stream"};base64,${base64}`;
  }
  if (!mediaType) {
    if (kind === "file") return `a file part needs "mimeType"`;
    mediaType = "image/*";
  }
  return { url, mediaType };
}

/** Whether an AI SDK 4 tool result is an error; returns its text, or null for a normal result. */
export function toolErrorText(result: unknown, isError: unknown): string | null {
  const text = (v: unknown): string => {
    if (typeof v === "string") return v;
    if (isObj(v) && typeof v.message === "string") return v.message;
    return JSON.stringify(v) ?? String(v);
  };
  if (isObj(result)) {
    if ((result.type === "error-text" || result.type === "error-json") && "value" in result) {
      return text(result.value);
    }
    if (
      result.error !== undefined && result.error !== null && result.error !== false &&
      (result.data === undefined || result.data === null)
    ) {
      return text(result.error);
    }
  }
  if (isError === true) return text(result) || "The tool failed.";
  return null;
}
