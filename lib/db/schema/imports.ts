import { boolean, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts, updatedAt } from "./columns";
import { trackables } from "./trackables";

export const IMPORT_STATUSES = ["running", "completed", "failed"] as const;

/** A problem with one record of an imported file (its line, or its index in the file's JSON array), or the file itself. */
export interface ImportErrorEntry {
  line?: number;
  index?: number;
  message: string;
}

// A history file read into a trackable's locations: its progress while it streams in, and the outcome.
export const imports = pgTable(
  "imports",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("running"),
    format: text("format").notNull(),
    evaluate: boolean("evaluate").notNull().default(false),
    processed: integer("processed").notNull().default(0),
    stored: integer("stored").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    // The first 20 problems, in file order.
    errors: jsonb("errors").$type<ImportErrorEntry[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [index("imports_account_trackable_idx").on(t.accountId, t.trackableId, t.id)],
);

export type ImportRow = typeof imports.$inferSelect;
