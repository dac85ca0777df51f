import { z } from "zod";
import { Email } from "@/lib/auth/schemas";
import { bodyWithLink } from "./http";
import type { ChannelAdapter, NotificationMessage } from "./types";

export const EmailConfig = z.strictObject({
  to: z
    .array(Email)
    .min(1, "must list at least one address")
    .max(20, "must list at most 20 addresses")
    .refine((a) => new Set(a).size === a.length, "must not repeat an address")
    .describe("Who receives the notifications (1–20 addresses); each message goes to all of them. Needs SMTP_URL on the server"),
});
export type EmailConfig = z.infer<typeof EmailConfig>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The HTML part: the title as a heading, the body's lines, and the link as a link. */
export function emailHtml(message: NotificationMessage): string {
  const lines = message.body.split("\n").map(escapeHtml).join("<br>");
  const link = message.link ? `<p><a href="${escapeHtml(message.link)}">${escapeHtml(message.link)}</a></p>` : "";
  return `<!doctype html><html><body style="font-family:sans-serif"><h2>${escapeHtml(message.title)}</h2><p>${lines}</p>${link}</body></html>`;
}

export const email: ChannelAdapter<typeof EmailConfig> = {
  type: "email",
  label: "E-mail",
  config: EmailConfig,
  secrets: [],
  view: (config) => ({ ...config }),
  unavailable: ({ mailer }) => (mailer ? null : "E-mail channels need outgoing mail: set SMTP_URL and SMTP_FROM on the server"),
  async send(message, config, deps) {
    if (!deps.mailer) return { delivered: false, statusCode: null, error: "Outgoing mail is not configured (SMTP_URL is not set)" };
    try {
      const { rejected } = await deps.mailer.send({ to: config.to, subject: message.title, text: bodyWithLink(message), html: emailHtml(message) });
      return rejected.length
        ? { delivered: false, statusCode: null, error: `The mail server refused ${rejected.join(", ")}` }
        : { delivered: true, statusCode: null, error: null };
    } catch (err) {
      return { delivered: false, statusCode: null, error: `Mail not sent: ${(err as Error).message}` };
    }
  },
};
