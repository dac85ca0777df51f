import fs from "node:fs";
import path from "node:path";

// The dashboard's sign-in flow over plain HTTP against a real server: next-auth's CSRF token and credentials callback,
// and the server actions the browser would call (their ids come from the build's server-reference manifest).

type Headers = Record<string, string>;

/** Cookies as a Cookie header value, merged with the Set-Cookie of a response (later values win). */
function mergeCookies(cookie: string, res: Response): string {
  const jar = new Map(cookie ? cookie.split("; ").map((c) => [c.slice(0, c.indexOf("=")), c] as const) : []);
  for (const set of res.headers.getSetCookie()) {
    const pair = set.split(";", 1)[0]!;
    jar.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  return [...jar.values()].join("; ");
}

async function csrf(baseUrl: string, headers: Headers): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${baseUrl}/api/auth/csrf`, { headers });
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: mergeCookies("", res) };
}

export interface SignInResult {
  ok: boolean;
  /** next-auth's error (CredentialsSignin for a wrong password, or the message of a refusal such as throttling). */
  error: string | null;
  /** Where next-auth sends the browser next. */
  url: string;
  /** The cookies after the attempt (with the session token when ok). */
  cookie: string;
}

/** An email + password sign-in as the sign-in form does it; `headers` (e.g. X-Forwarded-For) go on both requests. */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  opts: { headers?: Headers; callbackUrl?: string; code?: string } = {},
): Promise<SignInResult> {
  const headers = opts.headers ?? {};
  const { token, cookie } = await csrf(baseUrl, headers);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: token, email, password, ...(opts.code ? { code: opts.code } : {}), json: "true", callbackUrl: opts.callbackUrl ?? `${baseUrl}/trackables` }),
    redirect: "manual",
  });
  const { url } = (await res.json()) as { url: string };
  const error = new URL(url).searchParams.get("error");
  const after = mergeCookies(cookie, res);
  return { ok: !error && after.includes("session-token="), error, url, cookie: after };
}

/** Signs out the session in `cookie` as the sign-out button does. */
export async function signOut(baseUrl: string, cookie: string): Promise<void> {
  const { token, cookie: csrfCookie } = await csrf(baseUrl, { cookie });
  const res = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    headers: { cookie: `${cookie}; ${csrfCookie}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: token, json: "true", callbackUrl: `${baseUrl}/sign-in` }),
    redirect: "manual",
  });
  if (res.status >= 400) throw new Error(`sign-out failed: ${res.status}`);
}

/** True when `cookie` opens the dashboard (GET /account is the page, not a redirect to /sign-in). */
export async function isSignedIn(baseUrl: string, cookie: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/account`, { headers: { cookie }, redirect: "manual" });
  if (res.status === 200) return true;
  if (res.status >= 300 && res.status < 400 && res.headers.get("location")?.includes("/sign-in")) return false;
  throw new Error(`GET /account answered ${res.status}`);
}

type ActionManifest = { node: Record<string, { filename: string; exportedName: string; workers: Record<string, unknown> }> };
const actionManifest = (): ActionManifest =>
  JSON.parse(fs.readFileSync(path.join(process.cwd(), ".next/server/server-reference-manifest.json"), "utf8")) as ActionManifest;

/** The id the browser posts for a server action, from the build's manifest. */
export function actionId(file: string, exportedName: string): string {
  const found = Object.entries(actionManifest().node).find(([, a]) => a.filename === file && a.exportedName === exportedName);
  if (!found) throw new Error(`no server action ${exportedName} in ${file}`);
  return found[0];
}

/** Every server action of the build ("file#name"). */
export const builtActions = (): string[] => Object.values(actionManifest().node).map((a) => `${a.filename}#${a.exportedName}`);

/**
 * A page that uses the action (the server answers an action only on a page whose bundle holds it; elsewhere it tries
 * to forward it): the first page of its workers, route groups dropped, a dynamic segment filled with `param`.
 */
export function actionPage(file: string, exportedName: string, param = "0190f0e0-0000-7000-8000-000000000000"): string {
  const action = actionManifest().node[actionId(file, exportedName)]!;
  const worker = Object.keys(action.workers).find((w) => w.endsWith("/page"));
  if (!worker) throw new Error(`no page uses ${exportedName}`);
  const route = worker.replace(/^app/, "").replace(/\/page$/, "").replace(/\/\([^)]*\)/g, "").replace(/\[[^\]]+\]/g, param);
  return route || "/";
}

/** Posts a server action as the browser does (from `page`, else a page that uses it, with the given Origin); the raw response. */
export async function postAction(
  baseUrl: string,
  opts: { page?: string; file: string; name: string; args: unknown[]; cookie?: string; origin?: string },
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}${opts.page ?? actionPage(opts.file, opts.name)}`, {
    method: "POST",
    headers: {
      "Next-Action": actionId(opts.file, opts.name),
      "Content-Type": "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: opts.origin ?? baseUrl,
      ...(opts.cookie ? { cookie: opts.cookie } : {}),
    },
    body: JSON.stringify(opts.args),
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}

let counter = 0;
export const uniqueEmail = (name: string) => `${name}+${Date.now().toString(36)}${process.pid}${counter++}@example.com`;

/** A new dashboard user through the sign-up action; `headers` e.g. to come from another client address. */
export async function signUpUser(baseUrl: string, email = uniqueEmail("user"), password = "correct horse battery staple") {
  const res = await postAction(baseUrl, {
    page: "/sign-up",
    file: "lib/auth/actions.ts",
    name: "signUpAction",
    args: [{ email, password }],
  });
  if (res.status !== 200 || !res.text.includes('"ok":true')) throw new Error(`sign-up failed (${res.status}): ${res.text.slice(0, 300)}`);
  return { email, password };
}
