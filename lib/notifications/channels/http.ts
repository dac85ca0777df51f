import { checkWebhookUrl } from "@/lib/webhooks/url-policy";
import { sendWebhook } from "@/lib/webhooks/sender";
import { env } from "@/lib/config/env";
import { z } from "zod";
import type { ChannelDeps, SendOutcome } from "./types";

const MAX_URL_LENGTH = 2048;

/**
 * A URL a channel sends to, checked on save by the webhooks' outbound rules: https and public hosts unless
 * WEBHOOK_ALLOW_PRIVATE_URLS=true (checked again, with the resolved addresses, on every send).
 */
export const OutboundUrl = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .superRefine((url, ctx) => {
    if (url.length > MAX_URL_LENGTH) return;
    const reason = checkWebhookUrl(url, { allowPrivate: env().WEBHOOK_ALLOW_PRIVATE_URLS });
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  });

/** `base` joined with `path`, keeping any path the base already has (a self-hosted server under /ntfy/). */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** One POST through the webhook sender: the outbound rules, the pinned resolved address and the time-out. */
export async function post(url: string, body: string, headers: Record<string, string>, deps: ChannelDeps): Promise<SendOutcome> {
  const r = await sendWebhook({ url, body, headers, timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate, resolve: deps.resolve });
  return {
    delivered: r.ok,
    statusCode: r.statusCode,
    error: r.error,
    ...(r.retryAfter !== null ? { retryAfter: r.retryAfter } : {}),
  };
}

export const postJson = (url: string, payload: unknown, deps: ChannelDeps, headers: Record<string, string> = {}) =>
  post(url, JSON.stringify(payload), { "Content-Type": "application/json", ...headers }, deps);

/** Text cut to at most `max` characters (the services refuse longer messages), ending in "…" when cut. */
export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The body, and the link on a line of its own when the body does not carry it already. */
export function bodyWithLink(message: { body: string; link: string | null }): string {
  return message.link && !message.body.includes(message.link) ? `${message.body}\n${message.link}` : message.body;
}

/** The message as one text: the title (as `bold` marks it up) over the body and link. */
export function plainText(message: { title: string; body: string; link: string | null }, bold: (s: string) => string = (s) => s): string {
  return `${bold(message.title)}\n${bodyWithLink(message)}`;
}
