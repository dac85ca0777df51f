import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { discord, DiscordConfig } from "./discord";

const deps = allowLoopbackTargets();
const message = { title: "Van 12 entered Depot", body: "at 14:03 (UTC) · 52.52000, 13.40500", link: "https://fenceline.example/trackables/t1", tags: [] };

describe("discord channel", () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    capture = await startCapture(() => ({ status: 204 }));
  });
  afterAll(() => capture.close());

  it("POSTs JSON {content} to the webhook URL", async () => {
    const config = DiscordConfig.parse({ webhookUrl: `${capture.url}/api/webhooks/123/tok-en` });
    expect(await discord.send(message, config, deps)).toEqual({ delivered: true, statusCode: 204, error: null });
    const req = capture.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/api/webhooks/123/tok-en");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({
      content: "**Van 12 entered Depot**\nat 14:03 (UTC) · 52.52000, 13.40500\nhttps://fenceline.example/trackables/t1",
    });
  });

  it("reads the webhook URL back as its origin and webhookUrlSet, never its path", () => {
    const view = discord.view({ webhookUrl: "https://discord.com/api/webhooks/123/secret-token" });
    expect(view).toEqual({ webhookOrigin: "https://discord.com", webhookUrlSet: true });
    expect(JSON.stringify(view)).not.toContain("secret-token");
  });

  it("cuts content at Discord's 2000 characters", async () => {
    await discord.send({ ...message, body: "y".repeat(3000) }, { webhookUrl: `${capture.url}/api/webhooks/1/t` }, deps);
    expect((JSON.parse(capture.requests.at(-1)!.body) as { content: string }).content).toHaveLength(2000);
  });
});
