import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts } from "./columns";
import { users } from "./users";

// An invitation to join a workspace with a role: a single-use link valid for 7 days. Only the token's SHA-256 is
// stored, as for API keys and password resets.
export const invitations = pgTable(
  "invitations",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    // Stored lower-cased and trimmed, as users' addresses are.
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "member", "viewer"] }).notNull(),
    // SHA-256 of the token in the link, hex.
    tokenHash: text("token_hash").notNull(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    // Set when an admin withdraws the invitation before it is used.
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // The link's page and the acceptance look the token up by its hash.
    uniqueIndex("invitations_token_hash_key").on(t.tokenHash),
    // The members page lists a workspace's pending invitations.
    index("invitations_account_idx").on(t.accountId),
  ],
);

export type InvitationRow = typeof invitations.$inferSelect;
