import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { env } from "@/lib/config/env";

/** What every log line of a request carries. */
export interface RequestContext {
  requestId: string;
}

// Fields that may hold a credential wherever they appear in a logged object (one or two levels down), and a driver
// error's bound parameters (the values of an INSERT: secrets among them). A line keeps the field, as "[redacted]".
const SECRET_FIELDS = ["authorization", "cookie", "password", "secret", "token", "key", "apiKey", "signingSecret", "parameters"];
export const REDACTED_PATHS = [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), ...SECRET_FIELDS.map((f) => `*.*.${f}`)];

/**
 * The process's logger and request context, made once: the app server's bundle and the Next.js route bundles each
 * load this module, and lines written by either must carry the same request's id, so both live on globalThis.
 */
interface Logging {
  root: Logger;
  access: Logger;
  context: AsyncLocalStorage<RequestContext>;
}
const KEY = Symbol.for("fenceline.logging");
const holder = globalThis as unknown as { [KEY]?: Logging };

function config(): { level: string; format: "json" | "pretty" } {
  try {
    const e = env();
    return { level: e.LOG_LEVEL, format: e.LOG_FORMAT ?? (process.env.NODE_ENV === "production" ? "json" : "pretty") };
  } catch {
    // The configuration is invalid: the line that says so must still be written.
    return { level: "info", format: process.env.NODE_ENV === "production" ? "json" : "pretty" };
  }
}

function logging(): Logging {
  if (holder[KEY]) return holder[KEY];
  const context = new AsyncLocalStorage<RequestContext>();
  const { level, format } = config();
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: pino.stdSerializers.err },
    // The request's id on every line written while it is handled (see withRequestContext).
    mixin: () => {
      const c = context.getStore();
      return c ? { requestId: c.requestId } : {};
    },
  };
  // Readable lines are formatted in this thread (no transport worker to find by file name in a bundle).
  const root = format === "pretty" ? pino(options, pretty({ sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" })) : pino(options);
  // The access line has fixed fields (the request's id, method, route pattern, status and time), none a credential:
  // its child logger skips the redaction paths, whose wildcards cost a fifth of a single post's logging.
  const access = root.child({}, { redact: [] });
  return (holder[KEY] = { root, access, context });
}

export const rootLogger = (): Logger => logging().root;

/** The logger of the one line per request ("request": its id, method, route pattern, status and milliseconds). */
export const accessLogger = (): Logger => logging().access;

/** The request being handled, if any. */
export const currentRequest = (): RequestContext | undefined => logging().context.getStore();

/** Runs `fn` as the handling of a request: every line it logs, however deep, carries `requestId`. */
export const withRequestContext = <T>(ctx: RequestContext, fn: () => T): T => logging().context.run(ctx, fn);

// An incoming X-Request-Id is kept when it looks like an id (a proxy's or a client's); anything else gets a new one.
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when it is sane, else a new UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && REQUEST_ID.test(value) ? value : randomUUID();
}

type Level = "fatal" | "error" | "warn" | "info" | "debug";
const write = (level: Level) => (message: string, detail?: unknown) => {
  const root = logging().root;
  if (!root.isLevelEnabled(level)) return;
  if (detail === undefined) root[level](message);
  else if (detail instanceof Error) root[level]({ err: detail }, message);
  else if (typeof detail === "object" && detail !== null) root[level](detail as object, message);
  else root[level]({ detail: String(detail) }, message);
};

/**
 * The logger lib/ writes with, console-shaped: `log.error("[jobs] the step failed:", err)` — the message, then an
 * error or an object of fields. A JSON line or a readable one per LOG_FORMAT, at or above LOG_LEVEL.
 */
export const log = { fatal: write("fatal"), error: write("error"), warn: write("warn"), info: write("info"), debug: write("debug") };
