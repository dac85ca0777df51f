import { z } from "zod";
import { OutboundUrl, joinUrl, post } from "./http";
import type { ChannelAdapter } from "./types";

export const NtfyConfig = z.strictObject({
  serverUrl: OutboundUrl.default("https://ntfy.sh").describe("The ntfy server; default https://ntfy.sh (or your own, e.g. https://ntfy.example.com)"),
  topic: z
    .string()
    .regex(/^[-_A-Za-z0-9]{1,64}$/, "must be 1–64 letters, digits, - or _ (an ntfy topic name)")
    .describe("The topic your phone subscribes to; on ntfy.sh anyone who knows the name can read it, so pick a long random one"),
  token: z
    .string()
    .min(1, "must not be empty")
    .max(256, "must be at most 256 characters")
    .optional()
    .describe("An access token (tk_…) for a protected topic, sent as a Bearer token. Write-only: reads back as tokenSet"),
});
export type NtfyConfig = z.infer<typeof NtfyConfig>;

/** A header value as ntfy reads it: as is when ASCII, else RFC 2047 encoded-word (Node refuses raw UTF-8 in headers). */
export function headerText(value: string): string {
  const oneLine = value.replace(/[\r\n]+/g, " ");
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, "utf8").toString("base64")}?=`;
}

export const ntfy: ChannelAdapter<typeof NtfyConfig> = {
  type: "ntfy",
  label: "ntfy",
  config: NtfyConfig,
  secrets: ["token"],
  view: ({ token, ...rest }) => ({ ...rest, tokenSet: token !== undefined }),
  send(message, config, deps) {
    const headers: Record<string, string> = { "Content-Type": "text/plain; charset=utf-8", Title: headerText(message.title) };
    if (message.tags.length) headers.Tags = headerText(message.tags.join(","));
    if (message.link) headers.Click = message.link;
    if (config.token) headers.Authorization = `Bearer ${config.token}`;
    return post(joinUrl(config.serverUrl, encodeURIComponent(config.topic)), message.body, headers, deps);
  },
};
