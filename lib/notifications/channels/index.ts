import { env } from "@/lib/config/env";
import { mailer } from "@/lib/mail/mailer";
import { discord } from "./discord";
import { email } from "./email";
import { gotify } from "./gotify";
import { ntfy } from "./ntfy";
import { slack } from "./slack";
import { telegram } from "./telegram";
import type { ChannelAdapter, ChannelDeps } from "./types";

export type { ChannelAdapter, ChannelDeps, NotificationMessage, SendOutcome } from "./types";

/** Every notification channel type, once: schemas, API validation and the OpenAPI document read this table. */
export const CHANNELS = { email, ntfy, gotify, telegram, discord, slack } as const;

export type ChannelType = keyof typeof CHANNELS;
export const CHANNEL_TYPES = Object.keys(CHANNELS) as [ChannelType, ...ChannelType[]];

/** The adapter of a type, typed loosely for code that handles every type alike (stored configs, the API). */
export const channelAdapter = (type: ChannelType): ChannelAdapter => CHANNELS[type] as unknown as ChannelAdapter;

/** What the channels need from the server's configuration: the webhooks' outbound rules and time-out, the mailer. */
export function channelDeps(): ChannelDeps {
  const e = env();
  return { timeoutMs: e.WEBHOOK_TIMEOUT_MS, allowPrivate: e.WEBHOOK_ALLOW_PRIVATE_URLS, mailer: mailer() };
}
