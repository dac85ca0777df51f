import fs from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import next from "next";
import { dataDir, env } from "@/lib/config/env";
import { adminSocketPath } from "@/lib/http/admin-socket";
import { apiRequestUrl } from "@/lib/http/api-path";
import { errorBody } from "@/lib/http/errors";
import { metrics } from "@/lib/metrics/registry";
import { loadRoutesManifest, routeMatcher } from "@/lib/metrics/routes";
import { serveMetrics } from "@/lib/metrics/scrape";
import { CLIENT_IP_HEADER, clientAddress } from "./client-address";
import { endStreams } from "@/lib/stream/open";
import { startIdleGc } from "./idle-gc";
import { leanRoute } from "./lean-path";
import { restorePlatformDate } from "./platform-date";
import { pageKind, securityHeaders } from "./security-headers";
import { accessLogger, log, requestIdOf, withRequestContext } from "@/lib/log/logger";

export interface AppServerOptions {
  /** The app's directory (the one holding .next); the working directory by default. */
  dir?: string;
  /** Reverse proxies in front of the app (TRUST_PROXY by default). */
  trustProxy?: number;
  /** The Unix socket of the operator endpoint (DATA_DIR/admin.sock by default). */
  adminSocket?: string;
}

export interface AppServer {
  server: http.Server;
  /**
   * Listens on `port` (0: any free port) on every interface, and for the operator endpoint on the admin socket;
   * resolves with the port.
   */
  listen(port: number, hostname?: string): Promise<number>;
  /** Stops accepting connections, lets in-flight requests finish for up to `graceMs`, then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

// Headers a client could send to pose as a proxy or to choose what the app trusts. With TRUST_PROXY = 0 no proxy is in
// front, so the forwarded host/proto/port are the client's own inventions and Next.js recomputes them from the socket.
const FORWARDED_HOST_HEADERS = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port"];

// Methods Node's parser accepts but a WHATWG Request cannot carry (Next.js throws on them: a 500). TRACK is already a
// 400 from the parser, and CONNECT goes to the "connect" event, which closes the socket.
const UNSUPPORTED_METHODS = new Set(["TRACE"]);

// The posts Next.js may take for a server action, and so checks the Origin of (a 500 when it does not match): one with
// a Next-Action header, and a form post (a multipart one is a no-JS action; a urlencoded one is bailed out of later).
const FORM_TYPES = ["multipart/form-data", "application/x-www-form-urlencoded"];
const possibleServerAction = (req: IncomingMessage, kind: string): boolean =>
  req.method === "POST" &&
  (req.headers["next-action"] !== undefined ||
    (kind !== "api" && FORM_TYPES.some((t) => (req.headers["content-type"] ?? "").toLowerCase().startsWith(t))));

/**
 * Fenceline's HTTP server: Next.js's request handler behind a thin Node layer that does what only the socket owner
 * can do before Next.js sees the request — the client address (from the socket and TRUST_PROXY, overwritten on every
 * request), a refusal of paths that are not valid percent-encoded UTF-8 and of methods Next.js cannot take (405), a
 * 403 for cross-origin server-action posts, and the security headers of each kind of page (with the per-request CSP
 * nonce Next.js puts on its scripts). The operator endpoint is served on a Unix socket only (lib/http/admin.ts). Posts
 * that carry positions (device posts to /ingest/*, POST /api/v1/trackables/{id}/locations) are then answered here, by
 * the same code as the Next.js routes (lib/server/lean-path.ts).
 */
export async function createAppServer(opts: AppServerOptions = {}): Promise<AppServer> {
  const config = env();
  const trustProxy = opts.trustProxy ?? config.TRUST_PROXY;
  const leanOptions = { origin: new URL(config.APP_URL).origin, compress: config.HTTP_COMPRESSION };
  const dir = opts.dir ?? process.cwd();
  const platformDate = globalThis.Date;
  const app = next({ dev: false, dir, customServer: true });
  await app.prepare();
  restorePlatformDate(platformDate);
  const handle = app.getRequestHandler();
  // A burst's garbage is collected once the server goes quiet (lib/server/idle-gc.ts).
  const idleGc = startIdleGc();
  // Requests are counted by the route pattern that serves them, never by their raw path (lib/metrics/routes.ts).
  const routeOf = routeMatcher(loadRoutesManifest(dir), ["/metrics"]);
  const { httpRequests, httpDuration } = metrics();

  // Every request gets an id (the caller's X-Request-Id when sane), echoed in the response and carried by every log
  // line written while it is handled, here and in the Next.js routes (lib/log/logger.ts).
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req.headers["x-request-id"]);
    req.headers["x-request-id"] = requestId;
    res.setHeader("X-Request-Id", requestId);
    withRequestContext({ requestId }, () => handleRequest(req, res, requestId));
  };

  const handleRequest = (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    idleGc.touch();
    // No redirects under /api/v1: an empty path segment reaches the route as a blank id (see lib/http/api-path.ts).
    req.url = apiRequestUrl(req.url ?? "/");
    const url = req.url;
    const pathname = url.split("?", 1)[0]!;
    const kind = pageKind(pathname);
    const started = performance.now();
    res.once("finish", () => {
      const route = routeOf(pathname);
      const method = req.method ?? "GET";
      httpRequests.inc({ method, route, status: res.statusCode });
      const seconds = (performance.now() - started) / 1000;
      httpDuration.observe({ method, route }, seconds);
      // The route pattern, never the raw path or query: those carry share and device tokens.
      accessLogger().info({ requestId, method, route, status: res.statusCode, ms: Math.round(seconds * 10_000) / 10 }, "request");
    });

    const ip = clientAddress(req, trustProxy);
    req.headers[CLIENT_IP_HEADER] = ip;
    req.headers["x-forwarded-for"] = ip;
    if (trustProxy === 0) for (const h of FORWARDED_HOST_HEADERS) delete req.headers[h];

    // Prometheus's scrapes: answered here, before Next.js, behind METRICS_TOKEN or loopback (lib/metrics/scrape.ts).
    if (pathname === "/metrics") {
      serveMetrics(req, res, { clientIp: ip, token: config.METRICS_TOKEN }).catch((err: unknown) => {
        log.error("[server] GET /metrics failed:", err);
        if (res.headersSent) return res.destroy();
        sendJson(res, 500, errorBody("internal_error", "An internal error occurred. Try again later."));
      });
      return;
    }

    const headers = securityHeaders(kind, { tileUrl: config.NEXT_PUBLIC_MAP_TILE_URL });
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    // Next.js takes the nonce for its inline scripts from the request's CSP header: only ever the one set here.
    if (headers["Content-Security-Policy"]) req.headers["content-security-policy"] = headers["Content-Security-Policy"];
    else delete req.headers["content-security-policy"];
    delete req.headers["content-security-policy-report-only"];

    if (!isValidPath(pathname)) {
      if (kind === "api") return sendJson(res, 400, errorBody("invalid_request", "The path is not valid: it must be percent-encoded UTF-8"));
      // Pages: Next.js renders its 404 page for a path that exists nowhere.
      req.url = "/_fenceline/invalid-path";
    } else if (UNSUPPORTED_METHODS.has(req.method ?? "")) {
      const message = `Method ${req.method} is not supported by this server`;
      if (kind === "api") return sendJson(res, 405, errorBody("method_not_allowed", message));
      res.statusCode = 405;
      res.setHeader("Allow", "GET, HEAD, POST");
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      return res.end(`${message}.`);
    } else if (possibleServerAction(req, kind) && !sameOriginAction(req)) {
      res.statusCode = 403;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      return res.end("Forbidden: a server action may only be posted from this site's own pages.");
    }

    // Posts that carry positions take the lean path: the same code as their routes, without Next.js (lib/server/lean-path.ts).
    const lean = leanRoute(req.method, pathname);
    if (lean) {
      lean(req, res, leanOptions).catch((err: unknown) => {
        log.error(`[server] ${req.method} ${pathname} failed:`, err);
        if (res.headersSent) return res.destroy();
        sendJson(res, 500, errorBody("internal_error", "An internal error occurred. Try again later."));
      });
      return;
    }

    handle(req, res).catch((err: unknown) => {
      log.error(`[server] ${req.method} ${pathname} failed:`, err);
      if (res.headersSent) return res.destroy();
      sendJson(res, 500, errorBody("internal_error", "An internal error occurred. Try again later."));
    });
  };

  const server = http.createServer(onRequest);
  const admin = adminServer(opts.adminSocket ?? adminSocketPath(dataDir()), () => idleGc.touch());
  return {
    server,
    async listen(port, hostname) {
      const bound = await new Promise<number>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, hostname, () => {
          server.off("error", reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
      await admin.listen();
      return bound;
    },
    async close(graceMs = 5_000) {
      // Live streams never finish on their own: they end now, each reply completed (its client reconnects elsewhere).
      endStreams();
      const closed = Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), admin.close()]);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      idleGc.stop();
      await (await import("@/lib/stream/bus")).stopStreamBus();
      await app.close();
    },
  };
}

const adminModule = () => import("@/lib/http/admin");

/**
 * The operator endpoint's server, on a Unix socket in the data directory that only the server's own user may open
 * (mode 0600). Not on the TCP port: a reverse proxy on the same host would make every client look like loopback.
 */
function adminServer(file: string, touch: () => void) {
  const server = http.createServer((req, res) => {
    touch();
    adminModule()
      .then((m) => m.serveAdminRequest(req, res))
      .catch((err: unknown) => {
        log.error(`[server] admin socket ${req.method} ${req.url} failed:`, err);
        if (res.headersSent) return res.destroy();
        sendJson(res, 500, errorBody("internal_error", "An internal error occurred. Try again later."));
      });
  });
  let inode: number | null = null;
  return {
    async listen(): Promise<void> {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // A socket file left by a server that died: nothing listens on it any more.
      fs.rmSync(file, { force: true });
      try {
        await new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          // The socket is created with the mode the umask leaves: none for group and others from the start.
          const umask = process.umask(0o177);
          try {
            server.listen(file, () => {
              server.off("error", reject);
              resolve();
            });
          } finally {
            process.umask(umask);
          }
        });
        fs.chmodSync(file, 0o600);
        inode = fs.statSync(file).ino;
      } catch (err) {
        log.error(`[fenceline] the operator socket ${file} could not be opened (npm run apikey:* cannot reach this server):`, err);
      }
    },
    async close(): Promise<void> {
      if (!server.listening) return;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Only our own socket: another server on the same data directory may have replaced it since.
      if (inode !== null && fs.statSync(file, { throwIfNoEntry: false })?.ino === inode) fs.rmSync(file, { force: true });
    },
  };
}

/** A path Next.js can decode: every percent escape well-formed and the bytes valid UTF-8. */
export function isValidPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * A server-action post comes from this site: its Origin's host is the one Next.js compares it with — the host a
 * trusted proxy forwarded (untrusted X-Forwarded-Host headers are gone by now), else the Host it was sent to. Browsers
 * always send Origin on a POST; a request without one is not a browser's cross-site post, and Next.js lets it through.
 */
function sameOriginAction(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const header = req.headers["x-forwarded-host"];
  const forwarded = (Array.isArray(header) ? header[0] : header?.split(",")[0])?.trim();
  return host !== "" && host === (forwarded || req.headers.host);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(JSON.stringify(body));
}
