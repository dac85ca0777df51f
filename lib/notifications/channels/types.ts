import type { z } from "zod";
import type { Mailer } from "@/lib/mail/mailer";
import type { SendRequest } from "@/lib/webhooks/sender";

/** What a channel delivers: one notification, already worded (rules and templates make it). */
export interface NotificationMessage {
  title: string;
  body: string;
  /** The dashboard page the notification is about (ntfy's Click header, a link in the other channels' text). */
  link: string | null;
  /** Short words for the notification's kind, e.g. ["geofence.entry"] (ntfy's Tags header). */
  tags: string[];
}

/** How one send went: `delivered` on a 2xx answer (or every address accepted by the SMTP server). */
export interface SendOutcome {
  delivered: boolean;
  /** The receiver's HTTP status; null for mail and when no answer came. */
  statusCode: number | null;
  error: string | null;
  /** The receiver's Retry-After header, as sent (429 and 503 answers). */
  retryAfter?: string;
}

/** What send needs from the server: the webhooks' outbound rules and time-out, and the mailer (null without SMTP). */
export interface ChannelDeps {
  timeoutMs: number;
  allowPrivate: boolean;
  mailer: Mailer | null;
  /** DNS resolution, as in the webhook sender (injectable: this machine has no DNS to point at private addresses). */
  resolve?: SendRequest["resolve"];
}

/**
 * One notification channel type: its config schema (what is stored), which config fields are secrets (write-only),
 * how a stored config reads back, and how a message is sent.
 */
export interface ChannelAdapter<Schema extends z.ZodType<Record<string, unknown>> = z.ZodType<Record<string, unknown>>> {
  type: string;
  label: string;
  config: Schema;
  /** Config fields never returned: each reads back as `<field>Set: true` when present. */
  secrets: readonly string[];
  /** The config as the API returns it, without its secrets. */
  view(config: z.infer<Schema>): Record<string, unknown>;
  /** Refused on save when not null (the reason), e.g. e-mail without SMTP_URL. */
  unavailable?(deps: Pick<ChannelDeps, "mailer">): string | null;
  send(message: NotificationMessage, config: z.infer<Schema>, deps: ChannelDeps): Promise<SendOutcome>;
}
