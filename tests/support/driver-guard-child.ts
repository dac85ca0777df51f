// A process whose first database connection fails while postgres.js reads the array types (a 1 ms statement
// timeout cancels that read), for lib/db/driver-guard.test.ts. GUARD=1 installs the guard first; OTHER=1 then makes
// an unrelated unhandled rejection, which must still end the process.
import postgres from "postgres";
import { guardDriverRejections } from "@/lib/db/driver-guard";

if (process.env.GUARD === "1") guardDriverRejections();
const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {}, connection: { statement_timeout: 1 } });
try {
  await sql`select pg_sleep(0.01)`;
} catch {
  // The query's own failure (the same timeout) is handled here, as an application handles it.
}
await new Promise((r) => setTimeout(r, 300));
await sql.end({ timeout: 1 });
console.log("still running");
if (process.env.OTHER === "1") {
  void Promise.reject(new Error("an unrelated failure"));
  await new Promise((r) => setTimeout(r, 300));
}
console.log("done");
