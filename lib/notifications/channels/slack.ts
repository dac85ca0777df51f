import { z } from "zod";
import { webhookView } from "./discord";
import { OutboundUrl, clip, plainText, postJson } from "./http";
import type { ChannelAdapter } from "./types";

/** Slack cuts a message's text at 40,000 characters. */
const MAX_TEXT = 40_000;

export const SlackConfig = z.strictObject({
  webhookUrl: OutboundUrl.describe(
    "An incoming webhook URL of a Slack app (https://hooks.slack.com/services/…). Its path holds the secret, so it is " +
      "write-only: reads back as webhookUrlSet and webhookOrigin",
  ),
});
export type SlackConfig = z.infer<typeof SlackConfig>;

export const slack: ChannelAdapter<typeof SlackConfig> = {
  type: "slack",
  label: "Slack",
  config: SlackConfig,
  secrets: ["webhookUrl"],
  view: webhookView,
  send(message, config, deps) {
    return postJson(config.webhookUrl, { text: clip(plainText(message, (t) => `*${t}*`), MAX_TEXT) }, deps);
  },
};
