// The baseline of bench/ingest.ts: a bare node:http server that does the same insert with postgres.js (no auth, no
// validation framework, no rate limit, no Next.js) — what the raw database round trip costs.
import http from "node:http";
import postgres from "postgres";
import { v7 } from "uuid";

const sql = postgres(process.env.DATABASE_URL!, { max: 10, onnotice: () => {} });
const port = Number(process.env.PORT);

type P = { latitude: number; longitude: number; accuracy?: number; battery?: number; timestamp?: string };

http
  .createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        const trackableId = req.url!.split("/")[4]!; // /api/v1/trackables/{id}/locations
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as P | { locations: P[] };
        const items = "locations" in body ? body.locations : [body];
        const now = new Date();
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
        const inserted = await sql`insert into locations ${sql(rows)} returning *`;
        res.writeHead(201, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ data: inserted }));
      } catch (err) {
        res.writeHead(500);
        res.end(String(err));
      }
    });
  })
  .listen(port, "127.0.0.1", () => console.log("ready"));
