import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { gotify, GotifyConfig, GOTIFY_PRIORITY } from "./gotify";

const deps = allowLoopbackTargets();
const message = { title: "Van 12 left Depot", body: "at 09:15 (UTC) · 52.52000, 13.40500", link: "https://fenceline.example/trackables/t1", tags: ["geofence.exit"] };

describe("gotify channel", () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    capture = await startCapture(() => ({ status: 200, body: '{"id":1}' }));
  });
  afterAll(() => capture.close());

  it("POSTs JSON {title, message, priority} to {serverUrl}/message with X-Gotify-Key", async () => {
    const config = GotifyConfig.parse({ serverUrl: `${capture.url}/gotify`, appToken: "AbCdEf123" });
    expect(await gotify.send(message, config, deps)).toEqual({ delivered: true, statusCode: 200, error: null });
    const req = capture.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/gotify/message");
    expect(req.headers["x-gotify-key"]).toBe("AbCdEf123");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({
      title: "Van 12 left Depot",
      message: "at 09:15 (UTC) · 52.52000, 13.40500\nhttps://fenceline.example/trackables/t1",
      priority: GOTIFY_PRIORITY,
    });
  });

  it("reads the app token back as appTokenSet only", () => {
    const view = gotify.view(GotifyConfig.parse({ serverUrl: "https://gotify.example.com", appToken: "AbCdEf123" }));
    expect(view).toEqual({ serverUrl: "https://gotify.example.com", appTokenSet: true });
  });

  it("reports a refused token (401) as not delivered", async () => {
    const refusing = await startCapture(() => ({ status: 401, body: '{"error":"Unauthorized"}' }));
    try {
      const outcome = await gotify.send(message, { serverUrl: refusing.url, appToken: "wrong" }, deps);
      expect(outcome).toEqual({ delivered: false, statusCode: 401, error: "HTTP 401" });
    } finally {
      await refusing.close();
    }
  });
});
