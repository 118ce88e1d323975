// Which IP addresses Capdex may connect to: public unicast only. IPv6 forms that carry an IPv4
// address (IPv4-mapped, NAT64, 6to4, Teredo) are unwrapped and the IPv4 inside is judged instead.
import ipaddr from "ipaddr.js";

export type AddressVerdict = { public: true } | { public: false; range: string };

// IPv4-compatible addresses (deprecated): ipaddr.js calls them unicast, but they are not routable.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** Whether `address` (an IP literal) is a public unicast address. */
export function judgeAddress(address: string): AddressVerdict {
  const literal = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // Strict forms only: "0x7f.1" or "2130706433" are not addresses a resolver returns.
    if (!ipaddr.IPv4.isValidFourPartDecimal(literal) && !ipaddr.IPv6.isValid(literal)) return { public: false, range: "invalid" };
    parsed = ipaddr.parse(literal.replace(/%.*$/, ""));
  } catch {
    return { public: false, range: "invalid" };
  }
  if (literal.includes("%")) return { public: false, range: "scoped" };
  return parsed.kind() === "ipv4" ? judgeV4(parsed as ipaddr.IPv4) : judgeV6(parsed as ipaddr.IPv6);
}

export function isPublicAddress(address: string): boolean {
  return judgeAddress(address).public;
}

function judgeV4(ip: ipaddr.IPv4): AddressVerdict {
  const range = ip.range();
  return range === "unicast" ? { public: true } : { public: false, range };
}

function judgeV6(ip: ipaddr.IPv6): AddressVerdict {
  const embedded = embeddedV4(ip);
  if (embedded) {
    const inner = judgeV4(embedded.v4);
    if (!inner.public) return { public: false, range: `${embedded.form}:${inner.range}` };
    if (embedded.also) {
      const other = judgeV4(embedded.also);
      if (!other.public) return { public: false, range: `${embedded.form}:${other.range}` };
    }
    return { public: true };
  }
  const range = ip.range();
  if (range !== "unicast") return { public: false, range };
  if (ip.match(IPV4_COMPATIBLE)) return { public: false, range: "reserved" };
  if (!ip.match(GLOBAL_UNICAST_V6)) return { public: false, range: "not_global" };
  return { public: true };
}

type Embedded = { form: string; v4: ipaddr.IPv4; also?: ipaddr.IPv4 };

/** The IPv4 address an IPv6 address stands for, when it is one of the translation forms. */
function embeddedV4(ip: ipaddr.IPv6): Embedded | null {
  const p = ip.parts; // eight 16-bit words
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.isIPv4MappedAddress()) return { form: "ipv4_mapped", v4: ip.toIPv4Address() };
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765)
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0xffff && p[5] === 0) {
    return { form: "ipv4_translated", v4: v4(p[6], p[7]) };
  }
  // 64:ff9b::/96 well-known NAT64 prefix (RFC 6052)
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) {
    return { form: "nat64", v4: v4(p[6], p[7]) };
  }
  // 2002::/16 6to4: the IPv4 address follows the prefix
  if (p[0] === 0x2002) return { form: "6to4", v4: v4(p[1], p[2]) };
  // 2001:0::/32 Teredo: server IPv4 in words 2-3, client IPv4 obfuscated (inverted) in words 6-7
  if (p[0] === 0x2001 && p[1] === 0) {
    return { form: "teredo", v4: v4(p[6] ^ 0xffff, p[7] ^ 0xffff), also: v4(p[2], p[3]) };
  }
  return null;
}
