import { getDb } from "@/lib/db/client";

/** Server boot: open and migrate the database before the first request, or stop with the reason. */
export async function boot(): Promise<void> {
  try {
    await getDb();
  } catch (err) {
    console.error("[fenceline] could not open the database:", err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
