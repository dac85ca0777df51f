// The baselines of bench/throughput.ts: bare node:http servers that store posted points with postgres.js (no auth, no
// validation framework, no rate limit, no Next.js) — what the raw database round trip costs.
//   BASELINE=app-table (default): the same insert as the app's, into its locations table, on DATABASE_URL.
//   BASELINE=strict: the stricter one — parses the JSON, checks the coordinates, inserts into a minimal table of its
//     own (bare_locations: a uuid made by the database, trackable_id, latitude, longitude, accuracy, timestamp,
//     received_at; one index on (trackable_id, timestamp desc)) and answers 201 with the stored rows. On DATABASE_URL.
// With DATABASE_URL empty, the strict one runs on an embedded database of its own in DATA_DIR, started as the app
// starts its own (lib/db/client.ts: PGlite with the app's settings in a process of its own, lib/db/embedded-server.ts,
// reached by postgres.js over a Unix socket on one connection), so a bare run on PGlite pays what the app's runs pay.
// (The other inserts into the app's table, which only the app's database has.)
import http from "node:http";
import postgres from "postgres";
import { v7 } from "uuid";

const port = Number(process.env.PORT);
const strict = process.env.BASELINE === "strict";

type P = { latitude: number; longitude: number; accuracy?: number; battery?: number; timestamp?: string };


/** The coordinates' check of the strict baseline: numbers within range (the rest of a point is taken as sent). */
const valid = (p: P) =>
  typeof p.latitude === "number" && typeof p.longitude === "number" && Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180;

/** The database's client: Postgres at DATABASE_URL, or the embedded database in DATA_DIR with the app's connection. */
async function connect() {
  if (process.env.DATABASE_URL) return postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });
  if (!strict) throw new Error("BASELINE=app-table needs DATABASE_URL: it inserts into the app's locations table");
  const { startEmbeddedDatabase } = await import("@/lib/db/client");
  const embedded = await startEmbeddedDatabase(process.env.DATA_DIR!, "server");
  return postgres({ path: embedded.socket, user: "postgres", database: "postgres", max: 1, onnotice: () => {} });
}

async function main() {
  const sql = await connect();
  if (strict) {
    await sql`create table if not exists bare_locations (
      id uuid primary key default gen_random_uuid(), trackable_id uuid not null, latitude float8 not null, longitude float8 not null,
      accuracy float8, timestamp timestamptz not null, received_at timestamptz not null default now())`;
    await sql`create index if not exists bare_locations_trackable_ts_idx on bare_locations (trackable_id, timestamp desc)`;
  }
  const store = async (trackableId: string, items: P[]) => {
    const now = new Date();
    if (strict) {
      const rows = items.map((p) => ({
        trackable_id: trackableId,
        latitude: p.latitude,
        longitude: p.longitude,
        accuracy: p.accuracy ?? null,
        timestamp: p.timestamp ? new Date(p.timestamp) : now,
        received_at: now,
      }));
      return sql`insert into bare_locations ${sql(rows)} returning *`;
    }
    const rows = items.map((p) => ({
      id: v7(),
      trackable_id: trackableId,
      latitude: p.latitude,
      longitude: p.longitude,
      accuracy: p.accuracy ?? null,
      altitude: null,
      speed: null,
      heading: null,
      battery: p.battery ?? null,
      timestamp: p.timestamp ? new Date(p.timestamp) : now,
      received_at: now,
    }));
    return sql`insert into locations ${sql(rows)} returning *`;
  };

  http
    .createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        try {
          const trackableId = req.url!.split("/")[4]!; // /api/v1/trackables/{id}/locations
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as P | { locations: P[] };
          const items = "locations" in body ? body.locations : [body];
          if (strict && !items.every(valid)) {
            res.writeHead(400, { "Content-Type": "application/json" });
            res.end(JSON.stringify({ error: { code: "invalid_request", message: "latitude or longitude out of range" } }));
            return;
          }
          const inserted = await store(trackableId, items);
          res.writeHead(201, { "Content-Type": "application/json" });
          res.end(JSON.stringify({ data: inserted }));
        } catch (err) {
          res.writeHead(500);
          res.end(String(err));
        }
      });
    })
    .listen(port, "127.0.0.1", () => console.log("ready"));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
