import { sql } from "drizzle-orm";
import { getDb } from "./client";

/** Resolves when the database answers a trivial query; rejects with the driver's error otherwise. */
export async function pingDatabase(): Promise<void> {
  const db = await getDb();
  await db.execute(sql`select 1`);
}
