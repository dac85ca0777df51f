import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts } from "./columns";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // SHA-256 of the whole key, hex. The plaintext is shown once and never stored.
    hash: text("hash").notNull(),
    // First characters of the key, for display ("fl_3kq9Xz…").
    start: text("start").notNull(),
    // What the key may do: ["*"] or a subset of the scopes in lib/api-keys/scopes.ts. Fixed at creation.
    scopes: text("scopes").array().notNull().default(sql`'{*}'::text[]`),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    // Every authenticated request looks its key up by hash.
    uniqueIndex("api_keys_hash_key").on(t.hash),
    // The dashboard lists an account's keys.
    index("api_keys_account_idx").on(t.accountId, t.createdAt),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
