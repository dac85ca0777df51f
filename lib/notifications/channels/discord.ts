import { z } from "zod";
import { OutboundUrl, clip, plainText, postJson } from "./http";
import type { ChannelAdapter } from "./types";

/** Discord refuses a message content longer than 2000 characters. */
const MAX_CONTENT = 2000;

export const DiscordConfig = z.strictObject({
  webhookUrl: OutboundUrl.describe(
    "The channel's webhook URL (Server settings → Integrations → Webhooks → Copy webhook URL). Its path holds the secret, " +
      "so it is write-only: reads back as webhookUrlSet and webhookOrigin",
  ),
});
export type DiscordConfig = z.infer<typeof DiscordConfig>;

/** The one part of a webhook URL that is not its secret: where it goes. */
export const webhookView = ({ webhookUrl }: { webhookUrl: string }) => ({ webhookOrigin: new URL(webhookUrl).origin, webhookUrlSet: true });

export const discord: ChannelAdapter<typeof DiscordConfig> = {
  type: "discord",
  label: "Discord",
  config: DiscordConfig,
  secrets: ["webhookUrl"],
  view: webhookView,
  send(message, config, deps) {
    return postJson(config.webhookUrl, { content: clip(plainText(message, (t) => `**${t}**`), MAX_CONTENT) }, deps);
  },
};
