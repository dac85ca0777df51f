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
 * webhook secret). Unless `allowPrivate`: https only; an IP literal must be public unicast (judged after the WHATWG
 * parser has normalised odd forms such as `http://2130706433/` or `0x7f.1`; IPv4-mapped IPv6 is judged as the IPv4
 * it maps, and other IPv6 must lie in global unicast 2000::/3); local names (`localhost`, `*.local`, single-label
 * hosts...) are refused.
 */
export function checkWebhookUrl(url: string, { allowPrivate }: WebhookUrlPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a valid absolute URL, e.g. https://example.com/webhooks";
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  if (scheme !== "https" && !(allowPrivate && scheme === "http")) {
    return `must use ${allowPrivate ? "http or https" : "https"} (got ${scheme})`;
  }
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
  if (!ipaddr.isValid(literal)) return "must have a valid host";
  // ipaddr.process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 it maps.
  const addr = ipaddr.process(literal);
  const range = addr.range();
  if (range !== "unicast") return `must not point to a non-public address (${addr.toString()} is ${describeRange(range)})`;
  // What ipaddr.js calls unicast in IPv6 includes IETF-reserved space outside 2000::/3 (e.g. IPv4-compatible ::7f00:1).
  if (addr.kind() === "ipv6" && !(addr as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) {
    return `must not point to a non-public address (${addr.toString()} is not a global unicast IPv6 address)`;
  }
  return null;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

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
  if (!host.includes(".")) return `must use a public host name (${host} is a single-label, local name)`;
  const local = LOCAL_SUFFIXES.find((s) => host === s || host.endsWith(`.${s}`));
  if (local) return `must use a public host name (${host} is a local name: .${local})`;
  return null;
}
