import { z } from "zod";
import { OutboundUrl, clip, joinUrl, plainText, postJson } from "./http";
import type { ChannelAdapter } from "./types";

/** Telegram refuses a message text longer than 4096 characters. */
const MAX_TEXT = 4096;

export const TelegramConfig = z.strictObject({
  botToken: z
    .string()
    .regex(/^[0-9]+:[A-Za-z0-9_-]+$/, "must be a bot token as @BotFather gives it, e.g. 123456789:AAE…")
    .describe("The bot's token from @BotFather. Write-only: reads back as botTokenSet"),
  chatId: z
    .string()
    .regex(/^(-?[0-9]+|@[A-Za-z0-9_]{5,32})$/, "must be a numeric chat id (e.g. -1001234567890) or a channel's @username")
    .describe("The chat, group or channel the bot writes to: its numeric id or a public channel's @username"),
  apiBaseUrl: OutboundUrl.default("https://api.telegram.org").describe("The Bot API server; default https://api.telegram.org (or a local Bot API server)"),
});
export type TelegramConfig = z.infer<typeof TelegramConfig>;

export const telegram: ChannelAdapter<typeof TelegramConfig> = {
  type: "telegram",
  label: "Telegram",
  config: TelegramConfig,
  secrets: ["botToken"],
  view: ({ botToken, ...rest }) => ({ ...rest, botTokenSet: botToken !== undefined }),
  send(message, config, deps) {
    return postJson(joinUrl(config.apiBaseUrl, `bot${config.botToken}/sendMessage`), { chat_id: config.chatId, text: clip(plainText(message), MAX_TEXT) }, deps);
  },
};
