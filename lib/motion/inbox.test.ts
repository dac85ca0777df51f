import { PGlite } from "@electric-sql/pglite";
import { cube } from "@electric-sql/pglite/contrib/cube";
import { earthdistance } from "@electric-sql/pglite/contrib/earthdistance";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { describe, expect, it } from "vitest";
import { migrationsBefore } from "@/tests/support/migrations";

// motion_inbox: every statement that stores locations adds one row per trackable (its earliest fix time), in its own
// transaction; and a database from before the inbox gets one row per trackable for the fixes above motion's old
// watermark, so nothing stored before the upgrade is left out of trips.

const A = "00000000-0000-7000-8000-00000000000a";
const T1 = "00000000-0000-7000-8000-000000000001";
const T2 = "00000000-0000-7000-8000-000000000002";
const T3 = "00000000-0000-7000-8000-000000000003";
/** A location id whose UUIDv7 time is `n` ms after the epoch (ids order as n does). */
const idAt = (n: number) => `00000000-${n.toString(16).padStart(4, "0")}-7000-8000-000000000000`;

async function inbox(client: PGlite) {
  const { rows } = await client.query<{ trackable: string; earliest: string }>(
    `select trackable_id as trackable, to_char(earliest at time zone 'UTC', 'HH24:MI:SS') as earliest from motion_inbox order by trackable_id, earliest`,
  );
  return rows;
}

describe("motion_inbox", () => {
  it("is filled from motion's watermark on upgrade, then by every statement storing locations", async () => {
    const client = await PGlite.create({ extensions: { cube, earthdistance } });
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: migrationsBefore("0027_motion_inbox") });
    // T1: motion took in up to id 20 (its watermark); T2: motion never ran; T3: no state row.
    await client.exec(`
      insert into accounts (id, slug, name, plan) values ('${A}', 'a', 'A', 'free');
      insert into trackables (id, account_id, name) values ('${T1}', '${A}', 'one'), ('${T2}', '${A}', 'two'), ('${T3}', '${A}', 'three');
      insert into trackable_states (trackable_id, account_id, motion_seen_id) values ('${T1}', '${A}', '${idAt(20)}');
      insert into trackable_states (trackable_id, account_id) values ('${T2}', '${A}');
      insert into locations (id, trackable_id, latitude, longitude, timestamp) values
        ('${idAt(10)}', '${T1}', 1, 1, '2026-11-01T08:00:00Z'),
        ('${idAt(20)}', '${T1}', 1, 1, '2026-11-01T08:01:00Z'),
        ('${idAt(30)}', '${T1}', 1, 1, '2026-11-01T08:03:00Z'),
        ('${idAt(40)}', '${T1}', 1, 1, '2026-11-01T08:02:00Z'),
        ('${idAt(11)}', '${T2}', 1, 1, '2026-11-01T07:00:00Z'),
        ('${idAt(12)}', '${T3}', 1, 1, '2026-11-01T06:00:00Z');
    `);
    await migrate(db, { migrationsFolder: "drizzle" });
    expect(await inbox(client)).toEqual([
      { trackable: T1, earliest: "08:02:00" },
      { trackable: T2, earliest: "07:00:00" },
    ]);
    const columns = await client.query(`select 1 from information_schema.columns where table_name = 'trackable_states' and column_name = 'motion_seen_id'`);
    expect(columns.rows).toEqual([]);

    // One statement for two trackables: a row each, with that trackable's earliest time.
    await client.exec(`delete from motion_inbox`);
    await client.exec(`insert into locations (id, trackable_id, latitude, longitude, timestamp) values
      ('${idAt(50)}', '${T1}', 2, 2, '2026-11-01T09:05:00Z'),
      ('${idAt(51)}', '${T1}', 2, 3, '2026-11-01T09:04:00Z'),
      ('${idAt(52)}', '${T2}', 2, 2, '2026-11-01T10:00:00Z')`);
    expect(await inbox(client)).toEqual([
      { trackable: T1, earliest: "09:04:00" },
      { trackable: T2, earliest: "10:00:00" },
    ]);
    // A statement that stores nothing (a repeated device fix) announces nothing; a rolled back one neither.
    await client.exec(`delete from motion_inbox`);
    await client.exec(`insert into locations (id, trackable_id, latitude, longitude, timestamp, source) values
      ('${idAt(60)}', '${T3}', 5, 5, '2026-11-01T11:00:00Z', 'owntracks')`);
    await client.exec(`insert into locations (id, trackable_id, latitude, longitude, timestamp, source) values
      ('${idAt(61)}', '${T3}', 5, 5, '2026-11-01T11:00:00Z', 'owntracks')
      on conflict (trackable_id, timestamp, latitude, longitude) where source <> 'api' do nothing`);
    await client.exec(`begin; insert into locations (id, trackable_id, latitude, longitude, timestamp) values ('${idAt(62)}', '${T2}', 5, 5, '2026-11-01T12:00:00Z'); rollback;`);
    expect(await inbox(client)).toEqual([{ trackable: T3, earliest: "11:00:00" }]);

    // A trackable's deletion takes its rows with it.
    await client.exec(`delete from trackables where id = '${T3}'`);
    expect(await inbox(client)).toEqual([]);
    await client.close();
  }, 120_000);
});
