import type { z } from "zod";
import { ApiError, validationError } from "./errors";
import { decodeOffThread, offThreadName } from "./body-pool";
import { oneAtATime } from "./one-at-a-time";
import { metrics } from "@/lib/metrics/registry";

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * What reading a request takes of it: a web Request has these, and so does the lean device path's view of a node
 * request (lib/server/lean-path.ts), which is far cheaper to make than a Request.
 */
export type RequestLike = Pick<Request, "method" | "url" | "headers" | "body">;

/** Reads the raw body, refusing more than 1 MiB (413) whether or not Content-Length announced it. */
export async function readBodyText(req: RequestLike, maxBytes = MAX_BODY_BYTES): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false }).decode(await readBodyBytes(req, maxBytes));
}

/** The raw body's bytes, with readBodyText's limit. */
export async function readBodyBytes(req: RequestLike, maxBytes = MAX_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () => new ApiError("payload_too_large", `Request body exceeds ${maxBytes} bytes`);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The request's media type, lower case and without parameters ("application/json"), or null when it has none. */
export function mediaType(req: Pick<Request, "headers">): string | null {
  const header = req.headers.get("content-type");
  const type = header?.split(";")[0]!.trim().toLowerCase();
  return type ? type : null;
}

/** application/json or any `+json` type such as application/merge-patch+json (a charset parameter is fine). */
export const isJsonMediaType = (type: string | null): boolean =>
  type === "application/json" || (type !== null && /^application\/[a-z0-9!#$&^_.-]+\+json$/.test(type));

const unsupportedMediaType = (type: string | null) =>
  new ApiError(
    "unsupported_media_type",
    `Content-Type must be application/json, not ${type ? JSON.stringify(type) : "missing"}: the request body is JSON`,
  );

/**
 * Parses a JSON body that must be an object; an empty body counts as {} when `emptyAsObject`. A body whose
 * Content-Type is not JSON is refused (415) before it is read when its headers announce one, and after otherwise.
 */
export async function readJsonObject(req: RequestLike, opts: { emptyAsObject?: boolean } = {}): Promise<Record<string, unknown>> {
  const text = await readJsonText(req, opts);
  return text === null ? {} : parseJsonObject(text);
}

/** The JSON body's text, after the checks of readJsonObject; null for an empty body that counts as {}. */
async function readJsonText(req: RequestLike, opts: { emptyAsObject?: boolean }): Promise<string | null> {
  const contentType = mediaType(req);
  const announced = Number(req.headers.get("content-length")) > 0 || req.headers.has("transfer-encoding");
  if (announced && !isJsonMediaType(contentType)) throw unsupportedMediaType(contentType);
  const text = await readBodyText(req);
  if (text.length > 0 && !isJsonMediaType(contentType)) throw unsupportedMediaType(contentType);
  if (text.trim() === "") {
    if (opts.emptyAsObject) return null;
    throw new ApiError("invalid_request", "Request body is required: send a JSON object");
  }
  return text;
}

/** Parses JSON text that must be an object (400 otherwise), refusing what no field can hold (see checkJsonValue). */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_request", "Request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("invalid_request", "Request body must be a JSON object");
  }
  checkJsonValue(value);
  return value as Record<string, unknown>;
}

export const MAX_JSON_DEPTH = 32;

/**
 * Refuses what no field of this API can hold, before any schema sees it: nesting deeper than MAX_JSON_DEPTH (so no
 * later recursive code can overflow the stack), the key "__proto__", and strings that are not well-formed Unicode or
 * contain U+0000 (Postgres text and jsonb cannot store them). Iterative, so a hostile body cannot overflow the stack here either.
 */
function checkJsonValue(root: unknown): void {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === "string") {
      if (!value.isWellFormed() || value.includes("\u0000")) {
        throw new ApiError("invalid_request", "Request body contains a string that is not valid Unicode text (a lone surrogate or U+0000)");
      }
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_JSON_DEPTH) throw new ApiError("invalid_request", `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
    } else {
      for (const [key, item] of Object.entries(value)) {
        // JSON.parse makes "__proto__" an own key; merged into an object later it would replace the prototype.
        if (key === "__proto__") throw new ApiError("invalid_request", 'Request body must not use the key "__proto__"');
        stack.push([key, depth + 1], [item, depth + 1]);
      }
    }
  }
}

/** Body → schema, or 400 naming every offending field. */
export async function parseBody<S extends z.ZodType>(req: Request, schema: S, opts: { emptyAsObject?: boolean } = {}): Promise<z.output<S>> {
  const text = await readJsonText(req, opts);
  if (text === null) return decodeJsonBody("{}", schema);
  if (text.length < LARGE_BODY_CHARS) return decodeJsonBody(text, schema);
  // A large body whose validation costs milliseconds (a polygon's geometry checks) is decoded in a worker thread; the
  // other large ones take their turn on the event loop, one at a time.
  const name = offThreadName(schema);
  if (name) return (await decodeOffThread(name, text)) as z.output<S>;
  return oneAtATime(() => {
    const started = performance.now();
    try {
      return decodeJsonBody(text, schema);
    } finally {
      metrics().largeBodyDecodeDuration.observe({ where: "loop" }, (performance.now() - started) / 1000);
    }
  });
}

/** From this size on, a body is decoded off the event loop (body-pool.ts) or queued by oneAtATime (a 2,000-position polygon is ~55 KB). */
export const LARGE_BODY_CHARS = 16 * 1024;

/** JSON text → schema's output, or the ApiError of parseJsonObject or of a 400 naming every offending field. */
export function decodeJsonBody<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  const parsed = schema.safeParse(parseJsonObject(text));
  if (!parsed.success) throw validationError(parsed.error, "body");
  return parsed.data;
}

/** Query string → schema (unknown parameters are ignored), or 400 naming every offending parameter. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = new URL(req.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in raw)) raw[k] = v;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, "query");
  return parsed.data;
}
