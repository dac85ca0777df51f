import { inject } from "vitest";
import { adminRequest } from "@/lib/http/admin-socket";

let override: { baseUrl: string; adminToken: string; adminSocket: string } | null = null;

/** Points this test file's requests at another server (one started with different settings). */
export function useServer(server: { baseUrl: string; adminToken: string; adminSocket: string } | null) {
  override = server;
}

export const baseUrl = () => override?.baseUrl ?? inject("baseUrl");
const adminToken = () => override?.adminToken ?? inject("adminToken");
const adminSocket = () => override?.adminSocket ?? inject("adminSocket");

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A raw request to the test server: `body` is JSON-encoded unless it is already a string. */
export async function request<T = any>(
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${baseUrl()}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export interface TestAccount {
  key: string;
  keyId: string;
  accountId: string;
  /** A request authenticated with this account's key. */
  api<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
  /** Another key of the same account (a fresh rate-limit budget). */
  newKey(): Promise<string>;
  /** Revokes this account's first key (through the operator endpoint, as `apikey:revoke` does). */
  revoke(): Promise<void>;
}

let counter = 0;

/** Every test makes its own account (through the real operator endpoint, on its socket), so tests never share state. */
export async function newAccount(opts: { plan?: "free" | "enterprise" } = {}): Promise<TestAccount> {
  const slug = `t-${Date.now().toString(36)}-${process.pid}-${counter++}-${Math.random().toString(36).slice(2, 8)}`;
  const provision = async () => {
    const res = await adminRequest(adminSocket(), adminToken(), "POST", "/api-keys", { account: slug, plan: opts.plan ?? "enterprise" });
    if (res.status !== 201) throw new Error(`provisioning failed: ${res.status} ${res.text}`);
    return res.body as { key: string; keyId: string; accountId: string };
  };
  const first = await provision();
  return {
    ...first,
    api: (method, path, body) => request(method, `/api/v1${path}`, { key: first.key, body }),
    newKey: async () => (await provision()).key,
    revoke: async () => {
      const res = await adminRequest(adminSocket(), adminToken(), "DELETE", `/api-keys/${first.keyId}`);
      if (res.status !== 204) throw new Error(`revocation failed: ${res.status} ${res.text}`);
    },
  };
}

