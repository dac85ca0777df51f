import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/http/pagination";
import { baseUrl, newAccount, request, type TestAccount } from "../harness/client";
import { actionId, postAction, signIn, signUpUser, uniqueEmail } from "../harness/dashboard";

// Bad input never gives a 5xx: first each reproduction of a 5xx once found, then a fuzz that walks every
// route of the app (read from app/) with every method, invalid bytes in each path segment, extreme dates, forged
// cursors and huge numbers, against the real server.

let account: TestAccount;
let cookie: string;
let owned: Record<string, string>;
beforeAll(async () => {
  account = await newAccount();
  const trackable = await account.api("POST", "/trackables", { name: "Van" });
  const geofence = await account.api("POST", "/geofences", {
    name: "Depot",
    type: "circle",
    center: { latitude: 52.5, longitude: 13.4 },
    radius: 100,
  });
  const link = await account.api("POST", "/share-links", { trackableId: trackable.body.id });
  const user = await signUpUser(baseUrl(), uniqueEmail("fuzz"));
  cookie = (await signIn(baseUrl(), user.email, user.password)).cookie;
  const created = await postAction(baseUrl(), {
    page: "/trackables",
    file: "lib/trackables/actions.ts",
    name: "createTrackableAction",
    args: [{ name: "Bike", type: "bike" }],
    cookie,
  });
  owned = {
    trackableId: trackable.body.id,
    geofence_id: geofence.body.id,
    shareLinkId: link.body.id,
    token: new URL(link.body.url).pathname.split("/").pop()!,
    dashboardTrackableId: /"id":"([0-9a-f-]{36})"/.exec(created.text)![1]!,
  };
});

const expectJsonError = (res: { status: number; body: any }) => {
  expect(res.body?.error, JSON.stringify(res.body)).toEqual({ code: expect.any(String), message: expect.any(String) });
};

describe("the reproductions of 5xx answers once found", () => {
  it("an out-of-range `from` is a 400 naming the parameter", async () => {
    for (const from of ["9999-12-31T23:59:59-23:59", "0000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z"]) {
      const res = await account.api("GET", `/trackables/${owned.trackableId}/locations?from=${encodeURIComponent(from)}`);
      expect(res.status, from).toBe(400);
      expectJsonError(res);
      expect(res.body.error.message).toContain("from");
    }
  });

  it("a cursor at year 0000 (or 10000) is a 400", async () => {
    for (const t of ["0000-01-01T00:00:00.000Z", "+010000-01-01T00:00:00.000Z"]) {
      const cursor = encodeCursor({ t, i: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55", o: "desc" });
      const res = await account.api("GET", `/trackables/${owned.trackableId}/locations?cursor=${cursor}`);
      expect(res.status, t).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
  });

  it("invalid UTF-8 in an API path is a 400 with the error envelope; on a page, the 404 page", async () => {
    for (const p of ["/api/v1/trackables/%ED%A0%80", "/api/public/share/%FF", "/api/v1/%C0%AF", "/api/%"]) {
      const res = await request("GET", p, { key: account.key });
      expect(res.status, p).toBe(400);
      expectJsonError(res);
    }
    for (const p of ["/share/%FF", "/trackables/%ED%A0%80"]) {
      const res = await fetch(`${baseUrl()}${p}`, { headers: { cookie } });
      expect(res.status, p).toBe(404);
      expect(await res.text()).toContain("This page does not exist");
    }
  });

  it("the dashboard's custom range with extreme dates shows the page, not an error", async () => {
    for (const [from, to] of [["0000-01-01T00:00", ""], ["9999-12-31T23:59", ""], ["0001-01-01T00:00", "9999-12-31T23:59"], ["275760-09-13T00:00", ""]]) {
      const res = await fetch(`${baseUrl()}/trackables/${owned.dashboardTrackableId}?range=custom&from=${from}&to=${to}`, { headers: { cookie } });
      expect(res.status, `${from}..${to}`).toBe(200);
    }
  });

  it("a cross-origin server-action post is a 403", async () => {
    const res = await postAction(baseUrl(), {
      page: "/trackables",
      file: "lib/trackables/actions.ts",
      name: "createTrackableAction",
      args: [{ name: "From elsewhere", type: "x" }],
      cookie,
      origin: "https://evil.example",
    });
    expect(res.status).toBe(403);
    for (const origin of ["null", "not a url"]) {
      const r = await postAction(baseUrl(), { page: "/", file: "lib/auth/actions.ts", name: "signUpAction", args: [{}], origin });
      expect(r.status, origin).toBe(403);
    }
  });

  it("TRACE (which fetch cannot even send) is a 405: the JSON envelope under /api, plain text on pages", async () => {
    for (const method of ["TRACE"]) {
      for (const p of ["/api/v1/trackables", "/api/v1/nope", "/api/health"]) {
        const res = await raw(method, p);
        expect(res.status, `${method} ${p}`).toBe(405);
        expect(JSON.parse(res.text).error.code).toBe("method_not_allowed");
      }
      for (const p of ["/", "/sign-in", "/trackables", "/share/x"]) {
        const res = await raw(method, p);
        expect(res.status, `${method} ${p}`).toBe(405);
        expect(res.headers["content-type"]).toMatch(/^text\/plain/);
        expect(res.headers.allow).toBe("GET, HEAD, POST");
      }
    }
  });

  it("a cross-origin form post to a page is a 403, with or without a Next-Action header (never Next.js's 500)", async () => {
    const multipart = (fields: Record<string, string>) => {
      const boundary = "----fenceline-test";
      const body = Object.entries(fields)
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join("");
      return { type: `multipart/form-data; boundary=${boundary}`, body: `${body}--${boundary}--\r\n` };
    };
    const action = actionId("lib/auth/actions.ts", "signUpAction");
    for (const form of [multipart({ email: "a@example.com" }), multipart({ [`$ACTION_ID_${action}`]: "", email: "a@example.com" })]) {
      for (const p of ["/sign-in", "/sign-up", "/trackables"]) {
        const res = await raw("POST", p, { Origin: "https://evil.example", "Content-Type": form.type }, form.body);
        expect(res.status, p).toBe(403);
      }
    }
    const urlencoded = await raw("POST", "/sign-in", { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" }, "a=b");
    expect(urlencoded.status).toBe(403);
  });

  it("an Origin of the app's own host (APP_URL) posted to another Host is a 403, not a 500", async () => {
    const own = new URL(baseUrl());
    const headers = { Origin: own.origin, Host: "other.example" };
    const form = await raw("POST", "/sign-in", { ...headers, "Content-Type": "multipart/form-data; boundary=x" }, "--x--\r\n");
    expect(form.status).toBe(403);
    const action = await raw(
      "POST",
      "/sign-up",
      { ...headers, "Next-Action": actionId("lib/auth/actions.ts", "signUpAction"), "Content-Type": "text/plain;charset=UTF-8" },
      "[{}]",
    );
    expect(action.status).toBe(403);
    // The same post to the app's own Host goes through (an invalid sign-up: the action's own answer).
    const same = await raw(
      "POST",
      "/sign-up",
      { Origin: own.origin, "Next-Action": actionId("lib/auth/actions.ts", "signUpAction"), "Content-Type": "text/plain;charset=UTF-8" },
      "[{}]",
    );
    expect(same.status).toBe(200);
  });

  it("/api/inngest on the embedded runner is a clear 404", async () => {
    for (const method of ["GET", "POST", "PUT"]) {
      const res = await request(method, "/api/inngest");
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
      expect(res.body.error.message).toContain("Inngest is not configured");
    }
  });

  it("unknown API paths anywhere under /api are a JSON 404", async () => {
    for (const p of ["/api", "/api/nope", "/api/v2/trackables"]) {
      const res = await request("GET", p);
      expect(res.status, p).toBe(404);
      expectJsonError(res);
    }
  });
});

/** Every route of the app as a path template ("/api/v1/trackables/[trackableId]"), from its files under app/. */
function routeTemplates(): { template: string; kind: "api" | "page" }[] {
  const out: { template: string; kind: "api" | "page" }[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const grouped = /^\(.*\)$/.test(entry.name);
        walk(path.join(dir, entry.name), grouped ? segments : [...segments, entry.name]);
      } else if (entry.name === "route.ts" || entry.name === "page.tsx") {
        out.push({ template: `/${segments.join("/")}`, kind: entry.name === "route.ts" ? "api" : "page" });
      }
    }
  };
  walk(path.join(process.cwd(), "app"), []);
  return out;
}

const INVALID_SEGMENTS = ["%FF", "%ED%A0%80", "%C0%AF", "%", "%zz", "%00", "..%2F..%2Fetc", "x".repeat(2000)];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
const BODIES: (string | Blob)[] = [
  new Blob([new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])]), // {"name":"<FF FE>"}
  '{"latitude":1e309,"longitude":-1e309,"timestamp":"0000-01-01T00:00:00Z","radius":1e400,"name":"x"}',
  '{"timestamp":"9999-12-31T23:59:59-23:59","latitude":1,"longitude":1,"expiresAt":"+275760-09-13T00:00:00Z"}',
  '{"locations":[{"timestamp":"0000-01-01T00:00:00Z","latitude":99999999999999999999999,"longitude":1}]}',
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
];
const QUERIES = [
  "from=9999-12-31T23:59:59-23:59",
  "to=0000-01-01T00:00:00Z",
  "from=-000001-01-01T00:00:00Z",
  "limit=1e309",
  "limit=99999999999999999999999",
  "limit=-1",
  `cursor=${encodeCursor({ t: "0000-01-01T00:00:00.000Z", i: "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55", o: "asc" })}`,
  `cursor=${encodeCursor({ t: "+275760-09-13T00:00:00.000Z", i: "x", o: "desc", c: 1e308 } as never)}`,
  "cursor=%FF%FE",
  "order=%ED%A0%80",
  "range=custom&from=0000-01-01T00:00&to=9999-12-31T23:59",
];

describe("fuzz: every route × method × invalid path bytes, extreme dates, forged cursors, huge numbers", () => {
  it("never answers 5xx; API errors keep the JSON envelope", async () => {
    // Each route with valid ids of this account gets every method, query and body; with an invalid segment in place of
    // each id (or appended), every method.
    const validPaths = new Set<string>();
    const invalidPaths = new Set<string>();
    for (const { template } of routeTemplates()) {
      const dynamic = [...template.matchAll(/\[\[?\.{0,3}([^\]]+)\]\]?/g)];
      const ownedValue = (name: string) =>
        (template.startsWith("/api") ? undefined : name === "trackableId" ? owned.dashboardTrackableId : undefined) ??
        owned[name] ??
        "01936f4e-5c2a-7b3e-9a41-2f0c8d6e1a55";
      validPaths.add(template.replace(/\[\[?\.{0,3}([^\]]+)\]\]?/g, (_m, name: string) => ownedValue(name)));
      if (dynamic.length === 0) {
        for (const bad of INVALID_SEGMENTS) invalidPaths.add(`${template === "/" ? "" : template}/${bad}`);
      }
      for (let i = 0; i < dynamic.length; i++) {
        for (const bad of INVALID_SEGMENTS) {
          let n = 0;
          invalidPaths.add(template.replace(/\[\[?\.{0,3}([^\]]+)\]\]?/g, (_m, name: string) => (n++ === i ? bad : ownedValue(name))));
        }
      }
    }

    const cases: { method: string; path: string; body?: string | Blob }[] = [];
    for (const p of invalidPaths) for (const method of METHODS) cases.push({ method, path: p });
    for (const p of validPaths) {
      for (const method of METHODS) cases.push({ method, path: p });
      for (const q of QUERIES) cases.push({ method: "GET", path: `${p}?${q}` });
      for (const body of BODIES) for (const method of ["POST", "PATCH", "PUT"]) cases.push({ method, path: p, body });
    }

    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          const headers: Record<string, string> = { Authorization: `Bearer ${account.key}`, cookie };
          if (c.body !== undefined) headers["Content-Type"] = "application/json";
          const res = await fetch(`${baseUrl()}${c.path}`, { method: c.method, headers, body: c.body, redirect: "manual" });
          // A live stream that opened stays open: its status and headers are the answer.
          const streaming = res.ok && (res.headers.get("content-type") ?? "").startsWith("text/event-stream");
          const text = streaming ? (await res.body?.cancel(), "") : await res.text();
          const label = `${c.method} ${c.path.slice(0, 120)}${c.body ? ` body ${String(c.body).slice(0, 40)}` : ""} → ${res.status}`;
          if (res.status >= 500) failures.push(`${label}: ${text.slice(0, 200)}`);
          else if (c.path.startsWith("/api/") && !c.path.startsWith("/api/auth/") && res.status >= 400 && c.method !== "HEAD") {
            let body: any;
            try {
              body = JSON.parse(text);
            } catch {
              body = null;
            }
            if (typeof body?.error?.code !== "string" || typeof body?.error?.message !== "string") failures.push(`${label}: not the envelope: ${text.slice(0, 120)}`);
          }
        }
      }),
    );
    console.log(`fuzz: ${cases.length} requests over ${validPaths.size + invalidPaths.size} paths, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 600_000);
});

/** A request with any method and Host, as curl would send it (fetch refuses TRACE and sets Host itself). */
function raw(method: string, urlPath: string, headers: Record<string, string> = {}, body?: string) {
  const url = new URL(baseUrl());
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: urlPath, headers, setHost: !("Host" in headers) }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
