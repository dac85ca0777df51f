// A process that opens the embedded database of DATA_DIR the way the app does (lib/db/client.ts) and keeps writing
// to it, for lib/db/embedded.test.ts: it prints "ready <database pid>" once open, "busy" when another process holds
// the data directory. With HOLDER_MODE=count it prints "count <rows written>" instead, closes and exits.
import { sql } from "drizzle-orm";
import { closeDb, getDbHandle } from "@/lib/db/client";
import { EmbeddedDatabaseBusyError, readEmbeddedLock } from "@/lib/db/embedded-lock";
import { executeRows } from "@/lib/db/rows";

try {
  const { db } = await getDbHandle("server");
  await db.execute(sql`create table if not exists holder_writes (id serial primary key, at timestamptz not null default now(), pad text)`);
  if (process.env.HOLDER_MODE === "count") {
    const [{ n }] = (await executeRows<{ n: number }>(db, sql`select count(*)::int as n from holder_writes`)) as [{ n: number }];
    console.log(`count ${n}`);
    await closeDb();
    process.exit(0);
  }
  console.log(`ready ${readEmbeddedLock(process.env.DATA_DIR!)?.pid}`);
  for (;;) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into holder_writes (pad) select repeat('x', 200) from generate_series(1, 50)`);
    });
  }
} catch (err) {
  if (err instanceof EmbeddedDatabaseBusyError) {
    console.log(`busy ${err.message}`);
    process.exit(3);
  }
  throw err;
}
