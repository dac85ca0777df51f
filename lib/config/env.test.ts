import { afterEach, describe, expect, it, vi } from "vitest";

const saved = { PORT: process.env.PORT, APP_URL: process.env.APP_URL };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  vi.resetModules();
});

async function freshEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  vi.resetModules();
  return (await import("./env")).env();
}

describe("APP_URL", () => {
  it("defaults to http://localhost:$PORT, following PORT", async () => {
    expect((await freshEnv({ PORT: "4321", APP_URL: undefined })).APP_URL).toBe("http://localhost:4321");
    expect((await freshEnv({ PORT: undefined, APP_URL: "" })).APP_URL).toBe("http://localhost:3000");
  });

  it("is taken as given when set", async () => {
    expect((await freshEnv({ PORT: "4321", APP_URL: "https://track.example.com/base" })).APP_URL).toBe("https://track.example.com/base");
  });
});

describe("DATABASE_PREPARED_STATEMENTS", () => {
  afterEach(() => {
    delete process.env.DATABASE_PREPARED_STATEMENTS;
  });

  it("is on unless set to false or 0, and refuses anything else", async () => {
    expect((await freshEnv({ DATABASE_PREPARED_STATEMENTS: undefined })).DATABASE_PREPARED_STATEMENTS).toBe(true);
    expect((await freshEnv({ DATABASE_PREPARED_STATEMENTS: "false" })).DATABASE_PREPARED_STATEMENTS).toBe(false);
    expect((await freshEnv({ DATABASE_PREPARED_STATEMENTS: "0" })).DATABASE_PREPARED_STATEMENTS).toBe(false);
    await expect(freshEnv({ DATABASE_PREPARED_STATEMENTS: "off" })).rejects.toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });
});

describe("SMTP_URL and SMTP_FROM", () => {
  afterEach(() => {
    delete process.env.SMTP_URL;
    delete process.env.SMTP_FROM;
  });

  it("are unset by default, and SMTP_URL is smtp:// or smtps://", async () => {
    expect((await freshEnv({ SMTP_URL: undefined })).SMTP_URL).toBeUndefined();
    expect((await freshEnv({ SMTP_URL: "smtps://u:p@mail.example.com:465", SMTP_FROM: "a@example.com" })).SMTP_URL).toBe("smtps://u:p@mail.example.com:465");
    await expect(freshEnv({ SMTP_URL: "http://mail.example.com", SMTP_FROM: "a@example.com" })).rejects.toThrow(/SMTP_URL/);
  });

  it("refuses SMTP_URL without SMTP_FROM", async () => {
    await expect(freshEnv({ SMTP_URL: "smtp://mail.example.com:587", SMTP_FROM: undefined })).rejects.toThrow(/SMTP_FROM: required/);
  });
});
