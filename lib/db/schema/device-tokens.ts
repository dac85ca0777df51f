import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { trackables } from "./trackables";

// A credential that lets a tracking app post locations for one trackable, and nothing else. Deleted when revoked.
export const deviceTokens = pgTable(
  "device_tokens",
  {
    id: id(),
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    name: text("name"),
    // SHA-256 of the whole token, hex. The plaintext is shown once and never stored.
    hash: text("hash").notNull(),
    // First characters of the token, for display ("fldevR3kq9X…").
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [
    // Every ingestion request looks its token up by hash.
    uniqueIndex("device_tokens_hash_key").on(t.hash),
    // The trackable page and GET …/device-tokens list one trackable's tokens, newest first.
    index("device_tokens_trackable_idx").on(t.trackableId, t.id),
  ],
);

export type DeviceTokenRow = typeof deviceTokens.$inferSelect;
