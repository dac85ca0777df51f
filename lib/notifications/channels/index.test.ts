import { describe, expect, it } from "vitest";
import { CHANNELS, CHANNEL_TYPES, channelAdapter, type ChannelType } from "./index";

// A valid config of every type, its secrets recognisable; URL fields on public https hosts.
const SAMPLES: Record<ChannelType, Record<string, unknown>> = {
  email: { to: ["ops@example.com"] },
  ntfy: { serverUrl: "https://ntfy.example.com", topic: "alerts", token: "tk_SECRET1" },
  gotify: { serverUrl: "https://gotify.example.com", appToken: "SECRET2" },
  telegram: { botToken: "123:SECRET3", chatId: "42", apiBaseUrl: "https://telegram-bot-api.example.com" },
  discord: { webhookUrl: "https://discord.com/api/webhooks/1/SECRET4" },
  slack: { webhookUrl: "https://hooks.slack.com/services/T/B/SECRET5" },
};

describe("the channel registry", () => {
  it("lists every type once, keyed by its own type", () => {
    expect(CHANNEL_TYPES).toEqual(["email", "ntfy", "gotify", "telegram", "discord", "slack"]);
    for (const type of CHANNEL_TYPES) expect(CHANNELS[type].type).toBe(type);
  });

  it.each(CHANNEL_TYPES)("%s: reads a config back without its secrets, each as <field>Set: true", (type) => {
    const adapter = channelAdapter(type);
    const config = adapter.config.parse(SAMPLES[type]);
    const view = adapter.view(config);
    for (const field of adapter.secrets) {
      expect(view).not.toHaveProperty(field);
      expect(view[`${field}Set`]).toBe(true);
    }
    expect(JSON.stringify(view)).not.toMatch(/SECRET/);
  });

  it.each(CHANNEL_TYPES.filter((t) => t !== "email"))("%s: refuses http and loopback URLs by default (the webhooks' outbound rules)", (type) => {
    const adapter = channelAdapter(type);
    const urlFields = Object.entries(SAMPLES[type]).filter(([, v]) => typeof v === "string" && v.startsWith("https://"));
    expect(urlFields.length).toBeGreaterThan(0);
    for (const [field] of urlFields) {
      for (const bad of ["http://example.com/x", "https://127.0.0.1/x", "https://localhost/x", "https://user:pw@example.com/x"]) {
        const result = adapter.config.safeParse({ ...SAMPLES[type], [field]: bad });
        expect(result.success, `${field} = ${bad}`).toBe(false);
      }
    }
  });
});
