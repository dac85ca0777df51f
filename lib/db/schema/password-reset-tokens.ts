import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { users } from "./users";

// A "Forgot password?" link: single-use, valid for an hour. Only the token's SHA-256 is stored, as for API keys.
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: id(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    // SHA-256 of the token in the link, hex.
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    // Set when the link set a password, or when another link of the user did (each link works once, and only the newest matters).
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // The link's page and the reset look the token up by its hash.
    uniqueIndex("password_reset_tokens_hash_key").on(t.tokenHash),
    // A reset retires the user's other links.
    index("password_reset_tokens_user_idx").on(t.userId),
  ],
);

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
