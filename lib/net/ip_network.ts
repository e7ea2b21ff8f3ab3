/**
 * Who a per-address limit counts: the peer address in one spelling, and for IPv6 its /64 too.
 * One IPv6 subscriber usually holds a whole /64 and can pick a fresh address from it for every
 * request, so a limit keyed by the address alone would not bound them.
 */

/** The keys a client's tries count against. */
export interface ClientAddress {
  /** The address in one canonical spelling (IPv4 dotted; IPv6 eight full hex groups). */
  address: string;
  /** The IPv6 /64 the address is in (`2001:0db8:0001:0002::/64`); null for IPv4 and unknowns. */
  network: string | null;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Groups(text: string): number[] | null {
  const match = IPV4.exec(text);
  if (!match) return null;
  const bytes = match.slice(1).map(Number);
  if (bytes.some((b) => b > 255)) return null;
  return [(bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3]];
}

function hexGroups(part: string): number[] | null {
  if (part === "") return [];
  const groups: number[] = [];
  const pieces = part.split(":");
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    // The last piece may be a dotted IPv4 address (`::ffff:192.0.2.1`).
    const v4 = i === pieces.length - 1 ? ipv4Groups(piece) : null;
    if (v4) groups.push(...v4);
    else if (/^[0-9a-f]{1,4}$/i.test(piece)) groups.push(parseInt(piece, 16));
    else return null;
  }
  return groups;
}

/** The eight 16-bit groups of an IPv6 address (zone and brackets dropped), or null. */
export function ipv6Groups(ip: string): number[] | null {
  const text = ip.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = hexGroups(halves[0]);
  const tail = halves.length === 2 ? hexGroups(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...Array(missing).fill(0), ...tail];
}

const hex = (groups: number[]) => groups.map((g) => g.toString(16).padStart(4, "0")).join(":");

/**
 * The address and network of a peer address as `Deno.serve` reports it. An IPv4-mapped IPv6
 * address (`::ffff:192.0.2.1`, a dual-stack socket) is its IPv4 address; anything that does
 * not parse is keyed as given.
 */
export function clientAddress(ip: string): ClientAddress {
  const groups = ipv6Groups(ip);
  if (!groups) return { address: ip, network: null };
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [a, b] = [groups[6], groups[7]];
    return { address: [a >> 8, a & 255, b >> 8, b & 255].join("."), network: null };
  }
  return { address: hex(groups), network: `${hex(groups.slice(0, 4))}::/64` };
}
