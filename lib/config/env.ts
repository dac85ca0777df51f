import path from "node:path";
import { z } from "zod";

// Every environment variable Fenceline reads, parsed once. The README's configuration table mirrors this.
const csvOfMs = z
  .string()
  .transform((s) => s.split(",").map((p) => p.trim()).filter(Boolean).map(Number))
  .refine((a) => a.length > 0 && a.every((n) => Number.isInteger(n) && n >= 0), "a comma-separated list of milliseconds");

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .transform((v) => v === "true" || v === "1");

export const EnvSchema = z.object({
  DATABASE_URL: z.string().optional(),
  // Prepared statements on the Postgres connections (see lib/db/client.ts). Off only for a pooler that cannot keep
  // them (PgBouncer in transaction mode before 1.21, or without max_prepared_statements).
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  DATA_DIR: z.string().default(".data"),
  UPSTASH_REDIS_REST_URL: z.string().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  REDIS_URL: z.string().optional(),
  // Prefix of the rate limiter's keys in Redis/Upstash: installs (or test servers) sharing one Redis keep apart.
  RATE_LIMIT_KEY_PREFIX: z.string().default("fenceline:rl"),
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_BASE_URL: z.string().optional(),
  INNGEST_DEV: z.string().optional(),
  // Unset: http://localhost:$PORT (filled in below, so the default follows PORT).
  APP_URL: z.string().url().optional(),
  AUTH_SECRET: z.string().optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  // Requests with an unknown or revoked API key per client address a minute; past it every keyed request from that
  // address gets 429 until the window rolls on (keys cannot be guessed at full speed).
  AUTH_FAILURE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  // Requests per rolling minute per device token, on the /ingest endpoints of the tracking apps.
  DEVICE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  SHARE_RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).default(120),
  SHARE_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(300),
  // Dashboard sign-in attempts per client address in 10 minutes, and sign-ups per client address in an hour.
  SIGNIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  SIGNUP_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(10),
  // Password hashes (scrypt, ~100 ms of a core each) computed at once; more wait in a queue of at most
  // PASSWORD_HASH_QUEUE, beyond which a sign-in is refused as busy. Default: half the cores, at least 1.
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).default(100),
  DEFAULT_PLAN: z.enum(["free", "enterprise"]).default("enterprise"),
  WEBHOOK_RETRY_DELAYS: csvOfMs.default([5000, 30000, 120000]),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10000),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool.default(false),
  // Consecutive failed deliveries before an account endpoint is switched off (0: never).
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(0).default(10),
  // Embedded runner: geofence evaluations start at most this often (ms); the posts that come in meanwhile are
  // evaluated together in the next one (under load a round's fixed cost is shared; at rest nothing waits).
  EVALUATION_LINGER_MS: z.coerce.number().int().min(0).max(1000).default(50),
  BATTERY_LOW_THRESHOLD: z.coerce.number().min(0).max(100).default(20),
  DEVICE_OFFLINE_AFTER_S: z.coerce.number().int().min(1).default(600),
  // Read by next.config.ts when the server starts: gzip responses in the app server (off when a proxy compresses).
  HTTP_COMPRESSION: bool.default(true),
  // Reverse proxies in front of the app that append to X-Forwarded-For (0: none, the app is reached directly).
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  // Dashboard sign-in with OAuth: each provider switches on when both of its variables are set.
  AUTH_GITHUB_ID: z.string().optional(),
  AUTH_GITHUB_SECRET: z.string().optional(),
  AUTH_GOOGLE_ID: z.string().optional(),
  AUTH_GOOGLE_SECRET: z.string().optional(),
  // Outgoing mail (e-mail notification channels, password resets): smtp://user:pass@host:port (STARTTLS when the
  // server offers it) or smtps://… (TLS from the start). SMTP_FROM is the sender, required with SMTP_URL.
  SMTP_URL: z
    .string()
    .refine((s) => /^smtps?:\/\/[^/]/.test(s), "must be smtp://user:pass@host:port or smtps://user:pass@host:port")
    .optional(),
  SMTP_FROM: z.string().optional(),
  // Operations: the Bearer token of GET /metrics (unset: loopback clients only), and the logs' level and format (json
  // lines, the default under NODE_ENV=production, or readable lines).
  METRICS_TOKEN: z.string().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  // Live event streams (GET /api/v1/stream): open at once per API key (across servers with REDIS_URL; 429 beyond), and the interval
  // of the keep-alive comment on every open stream.
  STREAM_MAX_PER_KEY: z.coerce.number().int().min(1).default(10),
  STREAM_KEEPALIVE_MS: z.coerce.number().int().min(100).default(15_000),
  // Map tiles for every map of the dashboard and share pages, read at run time (no rebuild needed to change them).
  NEXT_PUBLIC_MAP_TILE_URL: z.string().default("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png"),
  NEXT_PUBLIC_MAP_ATTRIBUTION: z
    .string()
    .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
}).refine((e) => !e.SMTP_URL || e.SMTP_FROM, { path: ["SMTP_FROM"], message: "required when SMTP_URL is set, e.g. Fenceline <alerts@example.com>" });

export type Env = Omit<z.infer<typeof EnvSchema>, "APP_URL"> & { APP_URL: string };

let cached: Env | undefined;

export function env(): Env {
  if (cached) return cached;
  // Blank variables count as unset, as in most twelve-factor tools.
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${detail}`);
  }
  cached = { ...parsed.data, APP_URL: parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}` };
  return cached;
}

/** Absolute path of the directory that holds the embedded database and generated secrets. */
export function dataDir(): string {
  return path.resolve(env().DATA_DIR);
}
