import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMailer, type Mailer } from "@/lib/mail/mailer";
import { startSmtpCapture } from "@/tests/support/smtp";
import { email, EmailConfig } from "./email";

const message = {
  title: "Van 12 entered <Depot>",
  body: "at 14:03 (UTC) · 52.52000, 13.40500",
  link: "https://fenceline.example/trackables/t1",
  tags: ["geofence.entry"],
};

describe("email channel", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let mailer: Mailer;
  beforeAll(async () => {
    smtp = await startSmtpCapture({ user: "fenceline", pass: "p@ss:word", reject: ["gone@example.com"] });
    mailer = createMailer({ url: smtp.url, from: "Fenceline <alerts@example.com>", timeoutMs: 5_000 });
  });
  afterAll(async () => {
    mailer.close();
    await smtp.close();
  });

  it("mails every address once: subject = title, a plain-text body with the link and an HTML part", async () => {
    const config = EmailConfig.parse({ to: ["Ops@Example.com", "lead@example.com"] });
    expect(await email.send(message, config, { timeoutMs: 5_000, allowPrivate: false, mailer })).toEqual({ delivered: true, statusCode: null, error: null });
    const mail = await smtp.next();
    expect(mail.user).toBe("fenceline");
    expect(mail.envelope).toEqual({ from: "alerts@example.com", to: ["ops@example.com", "lead@example.com"] });
    expect(mail.parsed.subject).toBe("Van 12 entered <Depot>");
    expect(mail.parsed.from?.text).toBe('"Fenceline" <alerts@example.com>');
    expect(mail.parsed.text?.trim()).toBe("at 14:03 (UTC) · 52.52000, 13.40500\nhttps://fenceline.example/trackables/t1");
    expect(mail.parsed.html).toContain("<h2>Van 12 entered &lt;Depot&gt;</h2>");
    expect(mail.parsed.html).toContain('<a href="https://fenceline.example/trackables/t1">');
  });

  it("reports an address the server refuses as not delivered", async () => {
    const outcome = await email.send(message, { to: ["ops@example.com", "gone@example.com"] }, { timeoutMs: 5_000, allowPrivate: false, mailer });
    expect(outcome).toEqual({ delivered: false, statusCode: null, error: "The mail server refused gone@example.com" });
    await smtp.next();
  });

  it("is unavailable, and sends nothing, without a mailer", async () => {
    expect(email.unavailable!({ mailer: null })).toMatch(/SMTP_URL/);
    expect(email.unavailable!({ mailer })).toBeNull();
    const outcome = await email.send(message, { to: ["ops@example.com"] }, { timeoutMs: 5_000, allowPrivate: false, mailer: null });
    expect(outcome.delivered).toBe(false);
  });

  it("takes 1–20 distinct, valid addresses", () => {
    expect(EmailConfig.safeParse({ to: [] }).success).toBe(false);
    expect(EmailConfig.safeParse({ to: ["not-an-address"] }).success).toBe(false);
    expect(EmailConfig.safeParse({ to: ["a@example.com", "A@example.com"] }).success).toBe(false);
  });
});
