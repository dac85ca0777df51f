// What reading a timestamp as epoch milliseconds costs Postgres in a round's read of its points (the JSON aggregate of
// READS in lib/geofences/round-state.ts): the expression lib/db/rows.ts's epochMs gives (float8 date_part, rounded)
// against EXTRACT's numeric times a thousand cast to float8 (the baseline, what epochMs was), alternated in one
// server-side loop, µs per trackable read and per point; and, beside it, the same read with no timestamp at all.
// Usage: [DATABASE_URL=…] npx tsx bench/epoch-ms.ts [pointsPerRead=150] [reads=480] [rounds=3]
import postgres from "postgres";
import { epochMs } from "@/lib/db/rows";
import { fmt, scratchDatabase } from "./lib";

const perRead = Number(process.argv[2] ?? 150);
const reads = Number(process.argv[3] ?? 480);
const rounds = Number(process.argv[4] ?? 3);
const TRACKABLES = 16;

const numeric = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;
const none = () => "0";
/** READS's aggregate of one trackable's points (`trackable`: an SQL expression), its timestamps through `ms`. */
const aggregate = (ms: (column: string) => string, trackable: string) => `select json_agg(json_build_array(x.id, x.latitude, x.longitude, x.accuracy, x.battery,
    ${ms("x.timestamp")}, ${ms("x.received_at")}, x.speed) order by x.timestamp, x.id)::text
  from (select * from points p where p.trackable = ${trackable} order by p.timestamp, p.id limit ${perRead}) x`;

async function main() {
  const db = await scratchDatabase("fenceline_epoch");
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create table points (id uuid primary key, trackable int not null, latitude float8 not null, longitude float8 not null,
      accuracy float8, battery float8, speed float8, timestamp timestamp(3) with time zone not null, received_at timestamp(3) with time zone not null)`);
    await sql.unsafe(`insert into points select gen_random_uuid(), t, 52.5 + g / 1e5, 13.4 + g / 1e5, 5, 80, null,
        '2026-11-01T00:00:00Z'::timestamptz + g * interval '2.001 s', '2026-11-01T00:00:00Z'::timestamptz + g * interval '2.003 s'
      from generate_series(1, ${TRACKABLES}) t, generate_series(1, ${perRead}) g`);
    await sql.unsafe(`create index on points (trackable, timestamp, id)`);
    await sql.unsafe(`vacuum analyze points`);
    const variants = { "epochMs (date_part, rounded)": epochMs, "baseline: extract, numeric": numeric, "no timestamp": none } as const;
    // One server-side loop per variant and round: the reads' own execution, without the client or the protocol.
    const time = async (ms: (column: string) => string): Promise<number> => {
      await sql.unsafe(`do $$ declare t0 timestamptz := clock_timestamp(); v text; begin
          for i in 1..${reads} loop
            select (${aggregate(ms, `1 + i % ${TRACKABLES}`)}) into v;
          end loop;
          perform set_config('bench.us', (extract(epoch from clock_timestamp() - t0) * 1e6 / ${reads})::text, false);
        end $$`);
      const [row] = await sql`select current_setting('bench.us')::float8 as us`;
      return row!.us as number;
    };
    const results = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
    await time(epochMs); // warm the cache and the plan
    for (let r = 0; r < rounds; r++) for (const [name, ms] of Object.entries(variants)) results.get(name)!.push(await time(ms));
    console.log(`a round's points read as JSON, ${fmt(perRead)} points a read, ${fmt(reads)} reads a run, ${rounds} runs alternated:`);
    for (const [name, us] of results) {
      console.log(`  ${name.padEnd(30)} µs a read ${us.map((u) => fmt(u)).join(" / ")} · µs a point ${us.map((u) => fmt(u / perRead, 2)).join(" / ")}`);
    }
  } finally {
    await sql.end();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
