import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, vi } from "vitest";

export interface Captured {
  method: string;
  /** The request's path and query. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
  /** Set once the answer was written; false while held, and for good when the sender hung up first. */
  answered: boolean;
}

/** How to answer; `delayMs` holds the answer back (a slow service, or one that never answers before a crash). */
export type CaptureAnswer = { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

/** A real HTTP server on 127.0.0.1 that records each request and answers as told (200 "ok" by default). */
export async function startCapture(answer: (req: Captured) => CaptureAnswer = () => ({ status: 200, body: "ok" })) {
  const requests: Captured[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const captured: Captured = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        answered: false,
      };
      requests.push(captured);
      const a = answer(captured);
      const send = () => {
        if (res.destroyed || req.socket.destroyed) return;
        res.writeHead(a.status, a.headers).end(a.body ?? "");
        captured.answered = true;
      };
      if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file whose channels send to the capture server on loopback: save-time URL checks (which read
 * WEBHOOK_ALLOW_PRIVATE_URLS) let it through, and the send dependencies allow it. Call at the file's top level.
 */
export function allowLoopbackTargets() {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  afterAll(() => vi.unstubAllEnvs());
  return { timeoutMs: 5_000, allowPrivate: true, mailer: null };
}
