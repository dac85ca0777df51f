import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, ts } from "./columns";

// An Idempotency-Key of a POST under /api/v1 and the first response to it, kept 24 hours. The row is inserted before
// the request runs (the primary key lets one request claim a key across every server) and completed after it.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    // SHA-256 (hex) of the method, path and raw body: the same key with another request is refused.
    requestHash: text("request_hash").notNull(),
    // Null while the first request runs.
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    // When the current claim was taken: a claim left by a server that died is taken over after a while.
    claimedAt: ts("claimed_at").notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    // The periodic purge deletes keys past their 24 hours.
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
