import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { verifySignature } from "@/lib/webhooks/signature";

export interface Received {
  /** The request's path and query (tells apart endpoints that share this receiver). */
  url: string;
  body: string;
  json: Record<string, any>;
  headers: http.IncomingHttpHeaders;
  signatureValid: boolean | null;
  /** webhook-signature checked by the standardwebhooks library (with webhook-id and webhook-timestamp), or null without a secret. */
  standardValid: boolean | null;
  at: number;
  /** Set once the answer was written; false when the sender hung up first (the receiver then does not act on it). */
  answered: boolean;
}

/**
 * What a receiver does with the standardwebhooks library: default options for a whsec_<base64> secret, the raw-key
 * option (the secret's UTF-8 bytes) for any other. True when the library accepts the request.
 */
export function verifyStandard(r: Pick<Received, "body" | "headers">, secret: string): boolean {
  const base64 = /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret) && secret.length % 4 === 2;
  const wh = base64 ? new Webhook(secret) : new Webhook(Buffer.from(secret, "utf8"), { format: "raw" });
  const headers = Object.fromEntries(Object.entries(r.headers).filter((e): e is [string, string] => typeof e[1] === "string"));
  try {
    wh.verify(r.body, headers);
    return true;
  } catch {
    return false;
  }
}

export type Responder = (req: Received, n: number) => { status: number; body?: string; delayMs?: number; headers?: Record<string, string> };

/**
 * A real webhook receiver on 127.0.0.1: records every request, checks X-Service-Signature against the secret the
 * way a customer's server would (HMAC over the raw body, constant-time compare), checks webhook-signature with the
 * standardwebhooks library, and answers as told.
 */
export async function startReceiver(opts: { secret?: string | null; respond?: Responder } = {}) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let respond: Responder = opts.respond ?? (() => ({ status: 200, body: "ok" }));
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = req.headers["x-service-signature"];
      const entry: Received = {
        url: req.url ?? "",
        body,
        json: JSON.parse(body || "null"),
        headers: req.headers,
        signatureValid: opts.secret ? typeof signature === "string" && verifySignature(body, opts.secret, signature) : null,
        standardValid: opts.secret ? verifyStandard({ body, headers: req.headers }, opts.secret) : null,
        at: Date.now(),
        answered: false,
      };
      received.push(entry);
      const answer = respond(entry, received.length);
      const send = () => {
        if (res.destroyed || req.socket.destroyed) return;
        res.writeHead(answer.status, { "Content-Type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
        entry.answered = true;
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
      for (const w of waiters.splice(0)) w();
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    connections: () => connections,
    setResponder(r: Responder) {
      respond = r;
    },
    /** Resolves once `count` requests arrived (or rejects after timeoutMs). */
    async waitFor(count: number, timeoutMs = 20_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, Math.min(left, 250));
          waiters.push(() => {
            clearTimeout(t);
            r();
          });
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
