import { z } from "zod";
import { OutboundUrl, bodyWithLink, joinUrl, postJson } from "./http";
import type { ChannelAdapter } from "./types";

/** Gotify's Android app shows a notification from priority 4 and rings from 8; 5 is a normal alert. */
export const GOTIFY_PRIORITY = 5;

export const GotifyConfig = z.strictObject({
  serverUrl: OutboundUrl.describe("Your Gotify server, e.g. https://gotify.example.com"),
  appToken: z
    .string()
    .min(1, "must not be empty")
    .max(256, "must be at most 256 characters")
    .describe("The token of a Gotify application (Apps → Create application), sent as X-Gotify-Key. Write-only: reads back as appTokenSet"),
});
export type GotifyConfig = z.infer<typeof GotifyConfig>;

export const gotify: ChannelAdapter<typeof GotifyConfig> = {
  type: "gotify",
  label: "Gotify",
  config: GotifyConfig,
  secrets: ["appToken"],
  view: ({ appToken, ...rest }) => ({ ...rest, appTokenSet: appToken !== undefined }),
  send(message, config, deps) {
    return postJson(joinUrl(config.serverUrl, "message"), { title: message.title, message: bodyWithLink(message), priority: GOTIFY_PRIORITY }, deps, {
      "X-Gotify-Key": config.appToken,
    });
  },
};
