import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { ntfy, NtfyConfig } from "./ntfy";

const deps = allowLoopbackTargets();
const message = { title: "Van 12 entered Depot", body: "at 14:03 (UTC) · 52.52000, 13.40500", link: "https://fenceline.example/trackables/t1", tags: ["geofence.entry"] };

describe("ntfy channel", () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    capture = await startCapture();
  });
  afterAll(() => capture.close());

  it("POSTs the body to {serverUrl}/{topic} with Title, Tags, Click and the token as Bearer", async () => {
    const config = NtfyConfig.parse({ serverUrl: `${capture.url}/ntfy/`, topic: "fleet-alerts_7", token: "tk_secret" });
    const outcome = await ntfy.send(message, config, deps);
    expect(outcome).toEqual({ delivered: true, statusCode: 200, error: null });
    const req = capture.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/ntfy/fleet-alerts_7");
    expect(req.headers.title).toBe("Van 12 entered Depot");
    expect(req.headers.tags).toBe("geofence.entry");
    expect(req.headers.click).toBe("https://fenceline.example/trackables/t1");
    expect(req.headers.authorization).toBe("Bearer tk_secret");
    expect(req.body).toBe("at 14:03 (UTC) · 52.52000, 13.40500");
  });

  it("encodes a title outside ASCII as an RFC 2047 word and sends no Authorization or Click without them", async () => {
    const config = NtfyConfig.parse({ serverUrl: capture.url, topic: "t" });
    await ntfy.send({ ...message, title: "Wagen 3 verließ Zürich", link: null }, config, deps);
    const req = capture.requests.at(-1)!;
    expect(req.headers.title).toBe(`=?UTF-8?B?${Buffer.from("Wagen 3 verließ Zürich").toString("base64")}?=`);
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers.click).toBeUndefined();
  });

  it("defaults to https://ntfy.sh, reads the token back as tokenSet only, and takes only ntfy topic names", () => {
    const config = NtfyConfig.parse({ topic: "alerts", token: "tk_x" });
    expect(config.serverUrl).toBe("https://ntfy.sh");
    expect(ntfy.view(config)).toEqual({ serverUrl: "https://ntfy.sh", topic: "alerts", tokenSet: true });
    expect(NtfyConfig.safeParse({ topic: "has space" }).success).toBe(false);
  });

  it("reports a non-2xx answer as not delivered, with Retry-After", async () => {
    const busy = await startCapture(() => ({ status: 429, headers: { "Retry-After": "30" } }));
    try {
      const outcome = await ntfy.send(message, NtfyConfig.parse({ serverUrl: busy.url, topic: "t" }), deps);
      expect(outcome).toEqual({ delivered: false, statusCode: 429, error: "HTTP 429", retryAfter: "30" });
    } finally {
      await busy.close();
    }
  });

  it("refuses a loopback server when private URLs are not allowed, without connecting", async () => {
    const before = capture.requests.length;
    const outcome = await ntfy.send(message, { serverUrl: capture.url, topic: "t" }, { ...deps, allowPrivate: false });
    expect(outcome.delivered).toBe(false);
    expect(outcome.error).toMatch(/^Refused: /);
    expect(capture.requests.length).toBe(before);
  });
});
