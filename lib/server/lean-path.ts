import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip, gzipSync, type ZlibOptions } from "node:zlib";
import type { DeviceFormat } from "@/lib/devices/formats/common";
import { MAX_BODY_BYTES, type RequestLike } from "@/lib/http/body";
import { CLIENT_IP_HEADER } from "./client-address";

// The lean path: the app server answers the posts that carry positions itself — a tracking app's post to /ingest/*
// and POST /api/v1/trackables/{id}/locations — and the load balancers' GET /api/health, with the same code the Next.js
// routes call (handleDeviceIngest for the devices, postLocations for the API: key, rate limit, validation, store;
// healthResponse), without Next.js's routing, request wrapping and response pipeline, which cost more CPU than the
// store itself (a health probe through Next.js cost ~3 ms of CPU, most of it the framework's). Like Traccar's
// dedicated device port, but on the same port and behind the same client-address and security-header work of the app
// server. Only the methods that store points, GET of the health check and the live event stream (GET /api/v1/stream,
// an SSE reply Next.js would hold in its response pipeline) come here; everything else (OPTIONS, 405s,
// HEAD, unknown paths) still goes to Next.js, whose routes stay for `next dev`.

type AnyFormat = DeviceFormat<unknown>;
type Loader = () => Promise<AnyFormat>;

/**
 * `load`, called once: the modules are imported on the first post they answer, not at start (the app server starts before
 * anything touches the database). An `import()` per request would cost more than the post itself: each one goes
 * through the module loader's resolution (under tsx, a round trip to its loader thread and file-system checks).
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load().catch((err: unknown) => {
      loaded = null;
      throw err;
    });
    return loaded;
  };
}

const FORMATS: Record<string, { methods: readonly string[]; load: Loader }> = {
  "/ingest/traccar": { methods: ["GET", "POST"], load: once(async () => (await import("@/lib/devices/formats/traccar")).traccar as AnyFormat) },
  "/ingest/owntracks": { methods: ["POST"], load: once(async () => (await import("@/lib/devices/formats/owntracks")).owntracks as AnyFormat) },
  "/ingest/overland": { methods: ["POST"], load: once(async () => (await import("@/lib/devices/formats/overland")).overland as AnyFormat) },
};
const ingestModule = once(() => import("@/lib/devices/ingest"));
const locationsModule = once(() => import("@/lib/locations/post"));
const healthModule = once(() => import("@/lib/http/health"));
const streamModule = once(() => import("@/lib/stream/node"));

/**
 * The request body, at most MAX_BODY_BYTES + 1 bytes of it: the verb's readBodyText then refuses an oversized body
 * with its 413, as it does on the Next.js route; the rest is not read (and the connection is closed after the reply).
 */
function readBody(req: IncomingMessage): Promise<{ body: Buffer | null; truncated: boolean }> {
  if (req.method === "GET" || req.method === "HEAD" || req.headers["content-length"] === "0") return Promise.resolve({ body: null, truncated: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.pause();
        resolve({ body: Buffer.concat(chunks), truncated: true });
      }
    };
    const onEnd = () => resolve({ body: size === 0 ? null : Buffer.concat(chunks), truncated: false });
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
  });
}

/**
 * The node request as the verb reads it (RequestLike): its method, URL (on this app's origin), headers and body. A
 * web Request would do too, but making one (undici's, with its AbortSignal) cost more than the rest of this path.
 */
function toRequestLike(req: IncomingMessage, origin: string, body: Buffer | null): RequestLike {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The app server rewrote these on req.headers (client address, forwarded host): take its values, not the wire's.
    if (REWRITTEN.has(name.toLowerCase())) continue;
    headers.append(name, raw[i + 1]!);
  }
  for (const name of REWRITTEN) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const bytes = body ? new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length) : null;
  return {
    method: req.method ?? "GET",
    url: origin + (req.url ?? "/"),
    headers,
    body: bytes
      ? new ReadableStream<Uint8Array<ArrayBuffer>>({
          start(controller) {
            controller.enqueue(bytes);
            controller.close();
          },
        })
      : null,
  };
}

// Headers app-server.ts sets or deletes on req.headers before routing; the lean path reads them from there.
const REWRITTEN = new Set([
  CLIENT_IP_HEADER,
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "content-security-policy",
  "content-security-policy-report-only",
]);

/** A request the lean path answers; the security headers are already on `res`. */
export type LeanHandler = (req: IncomingMessage, res: ServerResponse, opts: LeanOptions) => Promise<void>;
export interface LeanOptions {
  /** The app's origin (APP_URL's), for the request's URL. */
  origin: string;
  /** HTTP_COMPRESSION: gzip replies of 1 KB or more for clients that accept it, as Next.js does. */
  compress: boolean;
}

const LOCATIONS_PATH = /^\/api\/v1\/trackables\/([^/]+)\/locations$/;

/** The handler that answers this request on the lean path, or null when Next.js answers it. */
export function leanRoute(method: string | undefined, pathname: string): LeanHandler | null {
  if (method === "POST") {
    const id = LOCATIONS_PATH.exec(pathname)?.[1];
    // The segment as it came: pathId decodes it (as it does what Next.js hands the route).
    if (id !== undefined) return (req, res, opts) => serveLocationPost(id, req, res, opts);
  }
  const device = FORMATS[pathname];
  if (device && method && device.methods.includes(method)) return (req, res, opts) => serveDeviceIngest(device.load, req, res, opts);
  if (method === "GET" && pathname === "/api/health") return serveHealth;
  if (method === "GET" && pathname === "/api/v1/stream") return serveEventStream;
  return null;
}

async function serveHealth(req: IncomingMessage, res: ServerResponse, opts: LeanOptions): Promise<void> {
  const { healthResponse } = await healthModule();
  await send(req, res, await healthResponse(), false, opts);
}

/** The live event stream: an SSE reply written to the socket as frames come (never compressed, see lib/stream/serve.ts). */
async function serveEventStream(req: IncomingMessage, res: ServerResponse, opts: LeanOptions): Promise<void> {
  const { serveStream } = await streamModule();
  await serveStream(req, res, toRequestLike(req, opts.origin, null));
}

async function serveDeviceIngest(load: Loader, req: IncomingMessage, res: ServerResponse, opts: LeanOptions): Promise<void> {
  const [{ handleDeviceIngest }, format, { body, truncated }] = await Promise.all([ingestModule(), load(), readBody(req)]);
  await send(req, res, await handleDeviceIngest(format, toRequestLike(req, opts.origin, body)), truncated, opts);
}

async function serveLocationPost(trackableId: string, req: IncomingMessage, res: ServerResponse, opts: LeanOptions): Promise<void> {
  const [{ postLocations }, { body, truncated }] = await Promise.all([locationsModule(), readBody(req)]);
  const response = await postLocations(toRequestLike(req, opts.origin, body), { params: Promise.resolve({ trackableId }) });
  await send(req, res, response, truncated, opts);
}

const gzipAsync = promisify(gzip);
const COMPRESS_FROM_BYTES = 1024;
/**
 * Level 3, not zlib's default 6: half the CPU for a batch's reply (a list of points compresses well either way: ~11 %
 * more bytes). A reply up to GZIP_ON_LOOP_BYTES is compressed on the event loop (a 100-point batch's 31 KB in ~36 µs):
 * handing it to libuv's pool costs ~70 µs more CPU per reply than compressing it. Larger ones (a 1,000-point batch's
 * 315 KB takes ~0.7 ms) go to the pool, so the loop is never held for long. `npx tsx bench/gzip-level.ts`.
 */
const GZIP: ZlibOptions = { level: 3 };
export const GZIP_ON_LOOP_BYTES = 64 * 1024;

/** The response on `res`; gzipped (see GZIP) when it is 1 KB or more and the client takes gzip. */
async function send(req: IncomingMessage, res: ServerResponse, response: Response, truncated: boolean, opts: LeanOptions): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (truncated) res.setHeader("Connection", "close");
  let payload = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  if (payload && payload.length >= COMPRESS_FROM_BYTES && opts.compress) {
    res.setHeader("Vary", "Accept-Encoding");
    if (acceptsGzip(req.headers["accept-encoding"])) {
      payload = payload.length <= GZIP_ON_LOOP_BYTES ? gzipSync(payload, GZIP) : await gzipAsync(payload, GZIP);
      res.setHeader("Content-Encoding", "gzip");
    }
  }
  if (payload) res.setHeader("Content-Length", payload.length);
  res.end(payload);
}

/** Whether an Accept-Encoding header takes gzip: listed (or `*`) without `q=0`. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  let gzipQ: number | null = null;
  let anyQ: number | null = null;
  for (const part of value.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name === "gzip" || name === "x-gzip") gzipQ = weight;
    else if (name === "*") anyQ = weight;
  }
  return (gzipQ ?? anyQ ?? 0) > 0;
}
