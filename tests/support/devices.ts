import { expect } from "vitest";
import { baseUrl, newAccount, type TestAccount } from "../harness/client";

/** An account with a trackable and a device token for it (through the real API). */
export async function newDevice(opts: { account?: TestAccount; name?: string } = {}) {
  const account = opts.account ?? (await newAccount());
  const trackable = await account.api("POST", "/trackables", { name: opts.name ?? "Phone", type: "person" });
  expect(trackable.status, trackable.text).toBe(201);
  const created = await account.api("POST", `/trackables/${trackable.body.id}/device-tokens`, { name: "test phone" });
  expect(created.status, created.text).toBe(201);
  return { account, trackableId: trackable.body.id as string, token: created.body.token as string, tokenId: created.body.id as string };
}

/** Every stored location of a trackable, oldest first. */
export async function storedLocations(account: TestAccount, trackableId: string): Promise<any[]> {
  const res = await account.api("GET", `/trackables/${trackableId}/locations?order=asc&limit=1000`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** A request to an /ingest path exactly as given: no header is added (the apps choose their own). */
export async function send(
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  // A Buffer body: fetch adds no Content-Type of its own (for a string it would add text/plain).
  const body = opts.body === undefined ? undefined : Buffer.from(opts.body);
  const res = await fetch(`${baseUrl()}${path}`, { method, headers: opts.headers, body, redirect: "manual" });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** HTTP Basic credentials as OwnTracks (okhttp's Credentials.basic) sends them. */
export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

/** An error reply of an /ingest endpoint: the JSON envelope with the code. */
export function expectError(res: RawResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.json).toEqual({ error: { code, message: expect.any(String) } });
}
