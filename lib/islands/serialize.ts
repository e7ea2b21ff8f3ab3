/**
 * Serialises island props into one JSON document per page and back.
 *
 * Format: a flat JSON array of slots; slot 0 is the root. A string, boolean or
 * finite number is stored as itself. An array is stored as an array of slot
 * indices; an object as `{ key: slotIndex }`; a tagged value as an array whose
 * first element is a tag string (`["D", iso]` Date, `["S", i]` signal,
 * `["U", href]` URL, `["M", [[k, v]…]]` Map, `["T", [i…]]` Set, `["B", digits]`
 * BigInt). Plain arrays hold only numbers, so a leading string is unambiguous.
 * Negative indices are constants (undefined, null, NaN, ±Infinity, -0). Because
 * every object gets exactly one slot, shared references and cycles survive.
 */

const UNDEFINED = -1;
const NULL = -2;
const NAN = -3;
const POS_INF = -4;
const NEG_INF = -5;
const NEG_ZERO = -6;

/** What the serialiser needs to know about signals without importing a runtime. */
export interface SignalLike {
  peek(): unknown;
  brand?: symbol;
}

/** Raised for a value that cannot cross from server to browser, e.g. a function. */
export class SerializeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SerializeError";
  }
}

const SIGNAL_BRAND = Symbol.for("preact-signals");

function isSignal(value: object): value is SignalLike {
  return (value as SignalLike).brand === SIGNAL_BRAND &&
    typeof (value as SignalLike).peek === "function";
}

/**
 * Serialises `value` to a JSON string safe to embed in a `<script>` element
 * (`<` is escaped, so neither `</script` nor `<!--` can appear).
 * `describe(path)` names the failing prop in errors, e.g. `Island "Chat", prop "onSend"`.
 */
// long-function: one recursive encoder over the fixed tag vocabulary that parse() mirrors
export function stringify(
  value: unknown,
  describe: (path: string) => string = (p) => `"${p}"`,
): string {
  const slots: unknown[] = [];
  const seen = new Map<object, number>();

  function encode(v: unknown, path: string): number {
    switch (typeof v) {
      case "undefined":
        return UNDEFINED;
      case "number":
        if (Number.isNaN(v)) return NAN;
        if (v === Infinity) return POS_INF;
        if (v === -Infinity) return NEG_INF;
        if (Object.is(v, -0)) return NEG_ZERO;
        return push(v);
      case "string":
      case "boolean":
        return push(v);
      case "bigint":
        return push(["B", v.toString()]);
      case "function":
        throw new SerializeError(
          `Cannot serialise a function at ${
            describe(path)
          }: island props must be data. Move the function into the island.`,
        );
      case "symbol":
        throw new SerializeError(`Cannot serialise a symbol at ${describe(path)}.`);
    }
    if (v === null) return NULL;
    const obj = v as object;
    const known = seen.get(obj);
    if (known !== undefined) return known;
    const index = slots.length;
    slots.push(null);
    seen.set(obj, index);
    let slot: unknown;
    if (isSignal(obj)) slot = ["S", encode(obj.peek(), `${path}.value`)];
    else if (obj instanceof Date) {
      slot = ["D", Number.isNaN(obj.getTime()) ? null : obj.toISOString()];
    } else if (obj instanceof URL) slot = ["U", obj.href];
    else if (obj instanceof Map) {
      slot = [
        "M",
        [...obj].map((
          [k, val],
          i,
        ) => [encode(k, `${path}.<key ${i}>`), encode(val, `${path}.<value ${i}>`)]),
      ];
    } else if (obj instanceof Set) {
      slot = [
        "T",
        [...obj].map((item, i) => encode(item, `${path}[${i}]`)),
      ];
    } else if (Array.isArray(obj)) slot = obj.map((item, i) => encode(item, `${path}[${i}]`));
    else {
      const proto = Object.getPrototypeOf(obj);
      if (proto !== Object.prototype && proto !== null) {
        throw new SerializeError(
          `Cannot serialise an instance of "${proto?.constructor?.name ?? "unknown"}" at ${
            describe(path)
          }: pass plain data.`,
        );
      }
      const out: Record<string, number> = {};
      for (const [k, val] of Object.entries(obj)) out[k] = encode(val, path ? `${path}.${k}` : k);
      slot = out;
    }
    slots[index] = slot;
    return index;
  }

  function push(v: unknown): number {
    slots.push(v);
    return slots.length - 1;
  }

  const root = encode(value, "");
  if (root < 0) return JSON.stringify([["C", root]]).replaceAll("<", "\\u003c");
  return JSON.stringify(slots).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028")
    .replaceAll(
      "\u2029",
      "\\u2029",
    );
}

/** How `parse` builds signals: the browser passes `@preact/signals`' `signal`. */
export interface ParseOptions {
  signal?: (value: unknown) => unknown;
}

/** Rebuilds a value serialised by `stringify`. */
// long-function: one recursive decoder over the fixed tag vocabulary that stringify() writes
export function parse(text: string, options: ParseOptions = {}): unknown {
  const slots = JSON.parse(text) as unknown[];
  const done = new Map<number, unknown>();

  function constant(i: number): unknown {
    switch (i) {
      case UNDEFINED:
        return undefined;
      case NULL:
        return null;
      case NAN:
        return NaN;
      case POS_INF:
        return Infinity;
      case NEG_INF:
        return -Infinity;
      case NEG_ZERO:
        return -0;
    }
    throw new SerializeError(`Unknown constant ${i} in serialised props.`);
  }

  function decode(i: number): unknown {
    if (i < 0) return constant(i);
    if (done.has(i)) return done.get(i);
    const slot = slots[i];
    if (slot === null || typeof slot !== "object") return slot;
    if (Array.isArray(slot)) {
      if (typeof slot[0] === "string") return decodeTagged(i, slot);
      const arr: unknown[] = [];
      done.set(i, arr);
      for (const j of slot as number[]) arr.push(decode(j));
      return arr;
    }
    const obj: Record<string, unknown> = {};
    done.set(i, obj);
    for (const [k, j] of Object.entries(slot as Record<string, number>)) obj[k] = decode(j);
    return obj;
  }

  function decodeTagged(i: number, slot: unknown[]): unknown {
    const [tag, payload] = slot;
    switch (tag) {
      case "D": {
        const d = new Date(payload === null ? NaN : payload as string);
        done.set(i, d);
        return d;
      }
      case "U": {
        const u = new URL(payload as string);
        done.set(i, u);
        return u;
      }
      case "B":
        return BigInt(payload as string);
      case "C":
        return constant(payload as number);
      case "S": {
        const inner = decode(payload as number);
        const s = options.signal ? options.signal(inner) : inner;
        done.set(i, s);
        return s;
      }
      case "M": {
        const m = new Map();
        done.set(i, m);
        for (const [k, v] of payload as [number, number][]) m.set(decode(k), decode(v));
        return m;
      }
      case "T": {
        const s = new Set();
        done.set(i, s);
        for (const j of payload as number[]) s.add(decode(j));
        return s;
      }
    }
    throw new SerializeError(`Unknown tag "${String(tag)}" in serialised props.`);
  }

  return decode(0);
}
