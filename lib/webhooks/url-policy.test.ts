import { describe, expect, it } from "vitest";
import { addressProblem, checkWebhookUrl } from "./url-policy";

const strict = (url: string) => checkWebhookUrl(url, { allowPrivate: false });
const relaxed = (url: string) => checkWebhookUrl(url, { allowPrivate: true });

describe("checkWebhookUrl, strict (WEBHOOK_ALLOW_PRIVATE_URLS unset)", () => {
  it.each([
    "https://example.com/hook",
    "https://93.184.215.14/",
    "https://1.1.1.1:8443/x?y=1#frag",
    "https://example.com:1/",
    "https://example.com./",
    "https://hooks.example.co.uk/a/b",
    "https://[2606:4700::1111]/",
    "https://[2a00:1450:4001:80b::200e]:8443/",
    "https://xn--nxasmq6b.com/",
    "https://例え.jp/",
    "https://local.example.com/",
    "https://localhost.example.com/",
    "https://8.8.8.8/",
    "https://172.32.0.1/",
    "https://100.128.0.1/",
    "https://169.255.0.1/",
  ])("accepts %s", (url) => {
    expect(strict(url)).toBeNull();
  });

  it.each([
    ["https://[::1]/", /loopback/],
    ["https://[fe80::1]/", /link-local/],
    ["https://169.254.169.254/", /link-local/],
    ["https://169.254.169.254/latest/meta-data/", /link-local/],
    ["https://10.0.0.1", /private/],
    ["https://172.16.5.4/", /private/],
    ["https://172.31.255.255/", /private/],
    ["https://192.168.1.1/", /private/],
    ["https://100.64.0.1", /carrier-grade NAT/],
    ["https://0.0.0.0", /unspecified/],
    ["https://0/", /unspecified/],
    ["https://127.0.0.1/", /loopback/],
    ["https://127.1/", /loopback/],
    ["https://127.255.255.254:8443/", /loopback/],
    ["https://255.255.255.255/", /broadcast/],
    ["https://224.0.0.1/", /multicast/],
    ["https://192.0.2.1/", /special-purpose/],
    ["https://198.18.0.1/", /special-purpose/],
    ["https://240.0.0.1/", /special-purpose/],
    ["https://[::]/", /unspecified/],
    ["https://[fc00::1]/", /private/],
    ["https://[fd12:3456::1]/", /private/],
    ["https://[ff02::1]/", /multicast/],
    ["https://[2001:db8::1]/", /special-purpose/],
    ["https://[2002:7f00:1::]/", /carries 127\.0\.0\.1, a loopback address/],
    ["https://[64:ff9b::a00:1]/", /carries 10\.0\.0\.1, a private address/],
    ["https://[::127.0.0.1]/", /carries 127\.0\.0\.1, a loopback address/],
    ["https://[64:ff9b:1::1]/", /special-purpose/],
    ["https://[2001::1]/", /special-purpose address \(teredo\)/],
    ["https://[100::1]/", /special-purpose/],
  ])("refuses the non-public IP literal %s", (url, reason) => {
    expect(strict(url)).toMatch(reason);
    expect(strict(url)).toMatch(/non-public address/);
  });

  it.each([
    ["https://[::ffff:10.0.0.1]/", "10.0.0.1"],
    ["https://[::ffff:127.0.0.1]/", "127.0.0.1"],
    ["https://[::ffff:169.254.169.254]/", "169.254.169.254"],
    ["https://[::ffff:7f00:1]/", "127.0.0.1"],
  ])("judges the IPv4-mapped IPv6 literal %s as %s", (url, v4) => {
    expect(strict(url)).toContain(v4);
  });

  it("accepts an IPv4-mapped IPv6 literal of a public address", () => {
    expect(strict("https://[::ffff:93.184.215.14]/")).toBeNull();
  });

  it.each([
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0x7f.1/",
    "https://0177.0.0.1/",
    "https://0x7F.0.0.1/",
    "https://127.0.1/",
    "https://%31%32%37.0.0.1/",
  ])("refuses %s, which the URL parser normalises to 127.0.0.1", (url) => {
    expect(strict(url)).toMatch(/127\.0\.0\.1 is a loopback address/);
  });

  it("normalises odd forms of private addresses too", () => {
    expect(strict("https://167772161/")).toMatch(/10\.0\.0\.1 is a private address/);
    expect(strict("https://0xa9.0xfe.0xa9.0xfe/")).toMatch(/169\.254\.169\.254/);
  });

  it.each(["https://127.0.0.1../", "https://localhost../", "https://a..example.com/", "https://.example.com/", "https://10.0.0.1../x"])(
    "refuses the host name with an empty label %s",
    (url) => {
      expect(strict(url)).toMatch(/empty label/);
    },
  );

  it.each([
    "https://localhost/",
    "https://localhost:8443/hook",
    "https://LOCALHOST./",
    "https://api.localhost/",
    "https://printer.local/",
    "https://metadata.google.internal/",
    "https://router.home.arpa/",
    "https://box.localdomain/",
    "https://nas.lan/",
    "https://intranet/",
    "https://metadata/",
    "https://%6c%6fcalhost/",
    "https://ⓛocalhost/",
  ])("refuses the local name %s without a DNS look-up", (url) => {
    expect(strict(url)).toMatch(/must use a public host name/);
  });

  it.each(["http://example.com/hook", "http://93.184.215.14/", "http://2130706433/"])("refuses plain http: %s", (url) => {
    // The operator learns how local development allows http.
    expect(strict(url)).toBe("must use https (got http). For local development, the server setting WEBHOOK_ALLOW_PRIVATE_URLS=true allows http");
  });

  it.each([
    ["ftp://x.com", "ftp"],
    ["ws://example.com/", "ws"],
    ["javascript:alert(1)", "javascript"],
    ["file:///etc/passwd", "file"],
    ["data:text/plain,hi", "data"],
  ])("refuses the scheme of %s", (url, scheme) => {
    expect(strict(url)).toBe(`must use https (got ${scheme})`);
  });

  it.each(["https://user:pw@x.com", "https://user@x.com/", "https://:pw@x.com/"])("refuses credentials in %s", (url) => {
    expect(strict(url)).toMatch(/must not contain credentials/);
  });

  it.each(["", "not a url", "/relative/path", "example.com/hook", "https://", "https://exa mple.com/", "https://example.123/", "https://[fe80::1%25eth0]/", "https://[::1/"])(
    "refuses the invalid URL %j",
    (url) => {
      expect(strict(url)).toMatch(/must be a valid absolute URL/);
    },
  );
});

// Forms once let through: every IPv6 address that carries a non-public IPv4 (IPv4-mapped, IPv4-compatible, NAT64
// 64:ff9b::/96, 6to4 2002::/16) is refused, at save time as a literal and at send time as a resolved address (the
// sender calls the same addressProblem; lib/webhooks/sender.test.ts checks it on real sends).
describe("addressProblem, the one rule for save time and send time", () => {
  it.each([
    ["::7f00:1", "127.0.0.1"],
    ["::127.0.0.1", "127.0.0.1"],
    ["::a9fe:a9fe", "169.254.169.254"],
    ["::a00:1", "10.0.0.1"],
    ["::ffff:7f00:1", "127.0.0.1"],
    ["::ffff:169.254.169.254", "169.254.169.254"],
    ["64:ff9b::7f00:1", "127.0.0.1"],
    ["64:ff9b::a9fe:a9fe", "169.254.169.254"],
    ["64:ff9b::192.168.0.1", "192.168.0.1"],
    ["2002:7f00:1::", "127.0.0.1"],
    ["2002:a9fe:a9fe::1", "169.254.169.254"],
    ["2002:c0a8:1:1::1", "192.168.0.1"],
  ])("refuses %s, which carries %s", (address, v4) => {
    expect(addressProblem(address)).toContain(`carries ${v4}`);
    expect(strict(`https://[${address}]/`)).toContain(`carries ${v4}`);
  });

  it.each(["::", "::1", "fe80::1", "fc00::1", "ff02::1", "2001:db8::1", "100::1", "2001::1", "::ffff:0:7f00:1", "4000::1", "64:ff9b:1::a00:1"])(
    "refuses the non-global IPv6 %s",
    (address) => {
      expect(addressProblem(address)).not.toBeNull();
      expect(strict(`https://[${address}]/`)).toMatch(/non-public address/);
    },
  );

  it.each(["93.184.215.14", "2606:4700::1111", "::ffff:93.184.215.14", "64:ff9b::5db8:d70e", "2002:5db8:d70e::1", "::5db8:d70e"])(
    "accepts the global unicast %s (an embedded IPv4 is public)",
    (address) => {
      expect(addressProblem(address)).toBeNull();
      expect(strict(`https://[${address}]/`.replace(/^https:\/\/\[(\d+\.\d+\.\d+\.\d+)\]/, "https://$1"))).toBeNull();
    },
  );

  it.each(["", "example.com", "1.2.3", "::g"])("refuses %j, which is no IP address", (address) => {
    expect(addressProblem(address)).toMatch(/not a valid IP address/);
  });
});

describe("checkWebhookUrl, relaxed (WEBHOOK_ALLOW_PRIVATE_URLS=true)", () => {
  it.each([
    "http://localhost:3000/hook",
    "http://127.0.0.1:8080/",
    "https://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://10.0.0.1/",
    "http://169.254.169.254/",
    "http://receiver:9000/",
    "http://printer.local/",
    "http://2130706433/",
    "https://example.com/hook",
  ])("accepts %s", (url) => {
    expect(relaxed(url)).toBeNull();
  });

  it("still allows only http and https", () => {
    expect(relaxed("ftp://x.com")).toBe("must use http or https (got ftp)");
    expect(relaxed("file:///etc/passwd")).toBe("must use http or https (got file)");
    expect(relaxed("gopher://127.0.0.1:6379/_x")).toBe("must use http or https (got gopher)");
  });

  it("still requires a valid URL and refuses credentials", () => {
    expect(relaxed("not a url")).toMatch(/must be a valid absolute URL/);
    expect(relaxed("http://")).toMatch(/must be a valid absolute URL/);
    expect(relaxed("http://user:pw@localhost/")).toMatch(/must not contain credentials/);
  });
});
