import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../harness/client";
import { signIn, signUpUser, uniqueEmail } from "../harness/dashboard";

// /sign-in?callbackUrl=… must never send the browser to another origin after a successful sign-in: neither the page
// (which hands the path to the form's router.replace) nor next-auth's own redirect.
// As they appear in the address bar (the query is decoded once by the page, as a browser's link would be).
const VECTORS = ["/%5Cevil.example", "/\\evil.example", "/%09/evil.example", "/\\/evil.example", "//evil.example", "https://evil.example/"];

let user: { email: string; password: string };
beforeAll(async () => {
  user = await signUpUser(baseUrl(), uniqueEmail("redirect"));
});

/** The callbackUrl the sign-in page passes to its form (read from the page's serialized React props). */
async function formCallback(raw: string): Promise<string> {
  const html = await (await fetch(`${baseUrl()}/sign-in?callbackUrl=${raw}`)).text();
  const payload = [...html.matchAll(/self\.__next_f\.push\(\[1,("(?:[^"\\]|\\.)*")\]\)/g)].map((m) => JSON.parse(m[1]!) as string).join("");
  const m = /"callbackUrl":("(?:[^"\\]|\\.)*")/.exec(payload);
  if (!m) throw new Error("no callbackUrl in the sign-in page");
  return JSON.parse(m[1]!) as string;
}

describe("open redirect after sign-in", () => {
  it.each(VECTORS)("the sign-in page keeps %j on this origin", async (raw) => {
    const target = await formCallback(raw);
    // What the browser would do with it.
    expect(new URL(target, baseUrl()).origin).toBe(baseUrl());
    expect(target).not.toMatch(/^\/[/\\]/);
    expect(target).not.toMatch(/^\/\t/);
  });

  it.each(VECTORS)("next-auth's redirect after the sign-in keeps %j on this origin", async (raw) => {
    const r = await signIn(baseUrl(), user.email, user.password, { callbackUrl: decodeURIComponent(raw) });
    expect(r.ok).toBe(true);
    expect(new URL(r.url).origin).toBe(baseUrl());
  });

  it("a same-origin path is kept", async () => {
    expect(await formCallback(encodeURIComponent("/webhooks?x=1"))).toBe("/webhooks?x=1");
    const r = await signIn(baseUrl(), user.email, user.password, { callbackUrl: "/webhooks" });
    expect(r.url).toBe(`${baseUrl()}/webhooks`);
  });
});
