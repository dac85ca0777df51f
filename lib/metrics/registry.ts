import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The process's metrics, made once. The app server's bundle and the Next.js route bundles each load this module, so
 * the registry is kept on globalThis: whichever loads first makes it, and every copy counts into the same one.
 */
function build() {
  const register = new Registry();
  collectDefaultMetrics({ register });
  return {
    register,
    httpRequests: new Counter({
      name: "fenceline_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [register],
    }),
    httpDuration: new Histogram({
      name: "fenceline_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method and route pattern",
      labelNames: ["method", "route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [register],
    }),
    healthCheckDuration: new Histogram({
      name: "fenceline_health_check_duration_seconds",
      help: "Time GET /api/health took to learn whether the database answers, by outcome (ok or unavailable)",
      labelNames: ["outcome"] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [register],
    }),
    largeBodyDecodeDuration: new Histogram({
      name: "fenceline_large_body_decode_duration_seconds",
      help: "Time to parse and validate a request body (or a dashboard geofence action's input) of 16 KB or more, by where it ran (thread: a worker thread; loop: the event loop, held meanwhile)",
      labelNames: ["where"] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [register],
    }),
    pointsStored: new Counter({
      name: "fenceline_points_stored_total",
      help: "Location points stored, by source (api or the tracking app's format)",
      labelNames: ["source"] as const,
      registers: [register],
    }),
    evaluationRounds: new Histogram({
      name: "fenceline_evaluation_round_duration_seconds",
      help: "Geofence evaluation rounds and their duration, by outcome (ok or error)",
      labelNames: ["outcome"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [register],
    }),
    events: new Counter({
      name: "fenceline_events_total",
      help: "Events committed, by type",
      labelNames: ["type"] as const,
      registers: [register],
    }),
    webhookDeliveries: new Counter({
      name: "fenceline_webhook_delivery_attempts_total",
      help: "Webhook delivery attempts, by status (succeeded, retry: failed and tried again later, failed: given up)",
      labelNames: ["status"] as const,
      registers: [register],
    }),
    notificationDeliveries: new Counter({
      name: "fenceline_notification_deliveries_total",
      help: "Notifications sent to a channel, by channel type and status (delivered or failed)",
      labelNames: ["channel", "status"] as const,
      registers: [register],
    }),
    jobsQueued: new Gauge({
      name: "fenceline_jobs_queued",
      help: "Workflow runs of the embedded runner that are due and waiting, by workflow",
      labelNames: ["workflow"] as const,
      registers: [register],
    }),
    jobsOldestAge: new Gauge({
      name: "fenceline_jobs_oldest_queued_age_seconds",
      help: "How long the oldest due run of each workflow has waited (0: none waiting)",
      labelNames: ["workflow"] as const,
      registers: [register],
    }),
    dbPoolMax: new Gauge({
      name: "fenceline_db_pool_max_connections",
      help: "Connections this process's database pool may open",
      labelNames: ["kind"] as const,
      registers: [register],
    }),
    dbConnections: new Gauge({
      name: "fenceline_db_connections",
      help: "Connections to the app's database (all servers), by state, from pg_stat_activity",
      labelNames: ["state"] as const,
      registers: [register],
    }),
  };
}

export type Metrics = ReturnType<typeof build>;

const KEY = Symbol.for("fenceline.metrics");
const holder = globalThis as unknown as { [KEY]?: Metrics };

export function metrics(): Metrics {
  return (holder[KEY] ??= build());
}
