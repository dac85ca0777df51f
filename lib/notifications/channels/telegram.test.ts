import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowLoopbackTargets, startCapture } from "@/tests/support/capture";
import { telegram, TelegramConfig } from "./telegram";

const deps = allowLoopbackTargets();
const message = { title: "Van 12 entered Depot", body: "at 14:03 (UTC) · 52.52000, 13.40500", link: "https://fenceline.example/trackables/t1", tags: [] };

describe("telegram channel", () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => {
    capture = await startCapture(() => ({ status: 200, body: '{"ok":true}' }));
  });
  afterAll(() => capture.close());

  it("POSTs JSON {chat_id, text} to {apiBaseUrl}/bot{botToken}/sendMessage", async () => {
    const config = TelegramConfig.parse({ botToken: "123456:AAE-secret_x", chatId: "-1001234567890", apiBaseUrl: capture.url });
    expect(await telegram.send(message, config, deps)).toEqual({ delivered: true, statusCode: 200, error: null });
    const req = capture.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/bot123456:AAE-secret_x/sendMessage");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({
      chat_id: "-1001234567890",
      text: "Van 12 entered Depot\nat 14:03 (UTC) · 52.52000, 13.40500\nhttps://fenceline.example/trackables/t1",
    });
  });

  it("defaults to api.telegram.org, reads the bot token back as botTokenSet only, and cuts text at 4096 characters", async () => {
    const config = TelegramConfig.parse({ botToken: "123456:AAE", chatId: "@fleet_alerts" });
    expect(config.apiBaseUrl).toBe("https://api.telegram.org");
    expect(telegram.view(config)).toEqual({ chatId: "@fleet_alerts", apiBaseUrl: "https://api.telegram.org", botTokenSet: true });
    await telegram.send({ ...message, body: "x".repeat(5000) }, { ...config, apiBaseUrl: capture.url }, deps);
    expect((JSON.parse(capture.requests.at(-1)!.body) as { text: string }).text).toHaveLength(4096);
  });

  it("keeps the bot token out of a failure's error text", async () => {
    const outcome = await telegram.send(message, { botToken: "123456:AAE-secret_x", chatId: "1", apiBaseUrl: "http://127.0.0.1:1" }, deps);
    expect(outcome.delivered).toBe(false);
    expect(outcome.error).not.toContain("AAE-secret_x");
  });
});
