import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpCapture } from "@/tests/support/smtp";
import { createMailer } from "./mailer";

describe("mailer", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture({ user: "mailer", pass: "s3cret" });
  });
  afterAll(() => smtp.close());

  it("authenticates with the URL's credentials and sends from SMTP_FROM", async () => {
    const mailer = createMailer({ url: smtp.url, from: "Fenceline <noreply@example.com>", timeoutMs: 5_000 });
    try {
      expect(await mailer.send({ to: ["ada@example.com"], subject: "Hello", text: "Plain", html: "<p>Rich</p>" })).toEqual({
        accepted: ["ada@example.com"],
        rejected: [],
      });
      const mail = await smtp.next();
      expect(mail.user).toBe("mailer");
      expect(mail.envelope.from).toBe("noreply@example.com");
      expect(mail.parsed.subject).toBe("Hello");
      expect(mail.parsed.text?.trim()).toBe("Plain");
      expect(mail.parsed.html).toBe("<p>Rich</p>");
    } finally {
      mailer.close();
    }
  });

  it("fails when the server refuses the credentials", async () => {
    const mailer = createMailer({ url: smtp.url.replace("s3cret", "wrong"), from: "noreply@example.com", timeoutMs: 5_000 });
    try {
      await expect(mailer.send({ to: ["ada@example.com"], subject: "x", text: "x" })).rejects.toThrow(/Invalid login|Invalid username/);
    } finally {
      mailer.close();
    }
  });
});
