import ipaddr from "ipaddr.js";

export interface WebhookUrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http, loopback, private addresses and local names are allowed (development, tests). */
  allowPrivate: boolean;
}

// Names that never resolve on the public internet (RFC 6761, 6762, 8375, ICANN's .internal) plus the pseudo-TLDs
// routers and intranets commonly use. Matched as the whole host or its last labels.
const LOCAL_SUFFIXES = ["localhost", "localdomain", "local", "internal", "home.arpa", "lan", "home", "corp", "intranet"];

/**
 * The save-time rules for an outbound webhook URL, without any DNS look-up: null when the URL is acceptable, else a
 * human reason. The delivery code calls it again at send time and then checks the addresses the host resolves to.
 *
 * Always: a valid absolute http(s) URL without credentials (the URL is shown in API responses; put secrets in the
 * webhook secret). Unless `allowPrivate`: https only; an IP literal must pass addressProblem (judged after the WHATWG
 * parser has normalised odd forms such as `http://2130706433/` or `0x7f.1`); local names (`localhost`, `*.local`,
 * single-label hosts...) and names with an empty label (`localhost..`) are refused.
 */
export function checkWebhookUrl(url: string, { allowPrivate }: WebhookUrlPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a valid absolute URL, e.g. https://example.com/webhooks";
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  if (allowPrivate && scheme !== "https" && scheme !== "http") return `must use http or https (got ${scheme})`;
  if (!allowPrivate && scheme === "http") {
    return "must use https (got http). For local development, the server setting WEBHOOK_ALLOW_PRIVATE_URLS=true allows http";
  }
  if (!allowPrivate && scheme !== "https") return `must use https (got ${scheme})`;
  if (parsed.username || parsed.password) {
    return "must not contain credentials (user:password@); use the webhook secret to authenticate deliveries";
  }
  if (allowPrivate) return null;

  // The parser lower-cases and IDNA-maps names and rewrites every IPv4 form to dotted decimal; IPv6 keeps brackets.
  const host = parsed.hostname.replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) return checkIp(host.slice(1, -1));
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return checkIp(host);
  return checkHostName(host);
}

function checkIp(literal: string): string | null {
  const problem = addressProblem(literal);
  return problem && `must not point to a non-public address (${problem})`;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4), if any. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = addr.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (addr.isIPv4MappedAddress()) return addr.toIPv4Address();
  // ::a.b.c.d (deprecated IPv4-compatible): the first 96 bits are zero.
  if (p.slice(0, 6).every((x) => x === 0)) return v4(p[6]!, p[7]!);
  if (addr.match(NAT64_WELL_KNOWN)) return v4(p[6]!, p[7]!);
  // 2002:AABB:CCDD::/48 is the 6to4 prefix of AA.BB.CC.DD.
  if (addr.range() === "6to4") return v4(p[1]!, p[2]!);
  return null;
}

/**
 * The one rule for where a webhook may connect, used when a URL is saved (IP literals) and again when it is sent
 * (every address its host resolves to): null for a global unicast address, else why not. An IPv6 form that carries
 * an IPv4 address (mapped, compatible, NAT64, 6to4) is judged as that IPv4, which a translator may deliver it to;
 * any other IPv6 must lie in global unicast 2000::/3 outside every special-purpose range.
 */
export function addressProblem(literal: string): string | null {
  // Only the canonical forms that resolvers return (not ipaddr.js's lenient `1.2.3` or `0x7f.1`).
  if (!ipaddr.IPv4.isValidFourPartDecimal(literal) && !ipaddr.IPv6.isValid(literal)) return `${literal} is not a valid IP address`;
  const addr = ipaddr.parse(literal);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    // :: and ::1 are also IPv4-compatible in form; say what they are.
    const own = v6.range();
    if (own === "loopback" || own === "unspecified") return `${v6.toString()} is ${describeRange(own)}`;
    const v4 = embeddedIPv4(v6);
    if (v4) {
      const range = v4.range();
      return range === "unicast" ? null : `${v6.toString()} carries ${v4.toString()}, ${describeRange(range)}`;
    }
    if (own !== "unicast") return `${v6.toString()} is ${describeRange(own)}`;
    if (!v6.match(GLOBAL_UNICAST_V6)) return `${v6.toString()} is not a global unicast IPv6 address`;
    return null;
  }
  const range = addr.range();
  return range === "unicast" ? null : `${addr.toString()} is ${describeRange(range)}`;
}

function describeRange(range: string): string {
  switch (range) {
    case "loopback":
      return "a loopback address";
    case "private":
    case "uniqueLocal":
      return "a private address";
    case "linkLocal":
      return "a link-local address";
    case "unspecified":
      return "the unspecified address";
    case "carrierGradeNat":
      return "a carrier-grade NAT address";
    case "multicast":
      return "a multicast address";
    case "broadcast":
      return "the broadcast address";
    default:
      return `a special-purpose address (${range})`;
  }
}

function checkHostName(host: string): string | null {
  if (!host) return "must have a host";
  // `localhost..` or `127.0.0.1..`: resolvers may still answer for them, so they could reach what the rules refuse.
  if (host.split(".").includes("")) return `must have a valid host name (${host} has an empty label)`;
  if (!host.includes(".")) return `must use a public host name (${host} is a single-label, local name)`;
  const local = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (local) return `must use a public host name (${host} is a local name: .${local})`;
  return null;
}
