import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { slack, SlackConfig } from "./slack";

const deps = allowLoopbackTargets();
const message = { title: "Van 12 entered Depot", body: "at 14:03 (UTC) · 52.52000, 13.40500", link: "https://fenceline.example/trackables/t1", tags: [] };

describe("slack channel", () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    capture = await startCapture((req) => (req.url.endsWith("/revoked") ? { status: 404, body: "no_service" } : { status: 200, body: "ok" }));
  });
  afterAll(() => capture.close());

  it("POSTs JSON {text} to the webhook URL", async () => {
    const config = SlackConfig.parse({ webhookUrl: `${capture.url}/services/T000/B000/XXXX` });
    expect(await slack.send(message, config, deps)).toEqual({ delivered: true, statusCode: 200, error: null });
    const req = capture.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/services/T000/B000/XXXX");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({
      text: "*Van 12 entered Depot*\nat 14:03 (UTC) · 52.52000, 13.40500\nhttps://fenceline.example/trackables/t1",
    });
  });

  it("reads the webhook URL back as its origin and webhookUrlSet", () => {
    expect(slack.view({ webhookUrl: "https://hooks.slack.com/services/T000/B000/XXXX" })).toEqual({
      webhookOrigin: "https://hooks.slack.com",
      webhookUrlSet: true,
    });
  });

  it("reports a revoked webhook (404) as not delivered", async () => {
    const outcome = await slack.send(message, { webhookUrl: `${capture.url}/services/revoked` }, deps);
    expect(outcome).toEqual({ delivered: false, statusCode: 404, error: "HTTP 404" });
  });
});
