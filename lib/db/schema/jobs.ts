import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";

// The embedded runner's durable workflow runs (unused when Inngest runs the workflows). A run is replayed from the
// top after every sleep or crash; `steps` memoizes what its completed steps returned, as Inngest does.
export const jobs = pgTable(
  "jobs",
  {
    id: id(),
    name: text("name").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["queued", "running", "failed"] }).notNull().default("queued"),
    runAt: ts("run_at").notNull().defaultNow(),
    // A running job whose lease has expired belongs to a runner that died: it is claimed again.
    lockedUntil: ts("locked_until"),
    lockedBy: text("locked_by"),
    // Consecutive failed tries of the step the run is at (reset when a step completes), for back-off and giving up.
    failures: integer("failures").notNull().default(0),
    steps: jsonb("steps").$type<Record<string, unknown>>().notNull().default({}),
    // Queued jobs with the same key coalesce (one evaluation pending per trackable is enough).
    dedupeKey: text("dedupe_key"),
    // Runs with the same key never run at the same time (per-trackable serialization).
    concurrencyKey: text("concurrency_key"),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The runner claims due queued jobs in run_at order.
    index("jobs_due_idx").on(t.runAt).where(sql`${t.status} = 'queued'`),
    // Expired leases of running jobs are reclaimed.
    index("jobs_running_idx").on(t.lockedUntil).where(sql`${t.status} = 'running'`),
    // A claim passes over a job whose concurrency key a live run holds: looked up by key, not by walking every running
    // job's lease (with the dead rows of the runs since the last vacuum, tens of thousands under load).
    index("jobs_running_key_idx").on(t.concurrencyKey, t.lockedUntil).where(sql`${t.status} = 'running'`),
    uniqueIndex("jobs_queued_dedupe_key").on(t.dedupeKey).where(sql`${t.status} = 'queued' and ${t.dedupeKey} is not null`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;
