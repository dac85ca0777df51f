import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts } from "./columns";
import { trackables } from "./trackables";

// A capability URL that shows one trackable's live position to whoever holds it, until it expires or is revoked.
export const shareLinks = pgTable(
  "share_links",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    trackableId: uuid("trackable_id").notNull().references(() => trackables.id, { onDelete: "cascade" }),
    name: text("name"),
    // The URL token (≥ 128 random bits, base64url). Kept so the dashboard can copy a valid link again.
    token: text("token").notNull(),
    // SHA-256 of the token, hex: the public endpoint looks links up by it, so no comparison depends on the token.
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // The public page resolves a token by its hash.
    uniqueIndex("share_links_token_hash_key").on(t.tokenHash),
    // GET /share-links pages through an account's links (optionally of one trackable) by id.
    index("share_links_account_trackable_idx").on(t.accountId, t.trackableId, t.id),
    index("share_links_account_id_idx").on(t.accountId, t.id),
  ],
);

export type ShareLinkRow = typeof shareLinks.$inferSelect;
