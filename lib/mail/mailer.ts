import nodemailer from "nodemailer";
import { env } from "@/lib/config/env";

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface MailResult {
  accepted: string[];
  rejected: string[];
}

export interface Mailer {
  send(mail: Mail): Promise<MailResult>;
  close(): void;
}

export interface MailerConfig {
  /** smtp://user:pass@host:port (STARTTLS when offered) or smtps://user:pass@host:port (TLS from the start). */
  url: string;
  from: string;
  /** Bounds the connection, the greeting and each SMTP command, as WEBHOOK_TIMEOUT_MS bounds a webhook. */
  timeoutMs: number;
}

/** A mailer over one SMTP server: nodemailer reads host, port, credentials and TLS from the URL. */
export function createMailer({ url, from, timeoutMs }: MailerConfig): Mailer {
  const transport = nodemailer.createTransport(url, {
    from,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(mail) {
      const info = await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      const addresses = (list: unknown): string[] =>
        Array.isArray(list) ? list.map((a) => (typeof a === "string" ? a : (a as { address: string }).address)) : [];
      return { accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
    },
    close: () => transport.close(),
  };
}

const globalForMail = globalThis as unknown as { __fencelineMailer?: { url: string; mailer: Mailer } };

/** The server's mailer from SMTP_URL and SMTP_FROM (one per process), or null when outgoing mail is not configured. */
export function mailer(): Mailer | null {
  const e = env();
  if (!e.SMTP_URL || !e.SMTP_FROM) return null;
  const held = globalForMail.__fencelineMailer;
  if (held?.url === e.SMTP_URL) return held.mailer;
  const created = createMailer({ url: e.SMTP_URL, from: e.SMTP_FROM, timeoutMs: e.WEBHOOK_TIMEOUT_MS });
  globalForMail.__fencelineMailer = { url: e.SMTP_URL, mailer: created };
  return created;
}

/** Whether outgoing mail is configured (the e-mail channel and "Forgot password?" need it). */
export const mailConfigured = (): boolean => Boolean(env().SMTP_URL);
