import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt } from "./columns";
import { users } from "./users";

// Who belongs to which workspace, with which role (lib/teams/roles.ts): the one truth for dashboard access.
export const memberships = pgTable(
  "memberships",
  {
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member", "viewer"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One membership per user and workspace; every session looks its own up by this pair.
    uniqueIndex("memberships_account_user_key").on(t.accountId, t.userId),
    // Exactly one owner per workspace: a second owner is refused by the database, not by a count.
    uniqueIndex("memberships_one_owner_key").on(t.accountId).where(sql`${t.role} = 'owner'`),
    // The workspace switcher lists a user's workspaces.
    index("memberships_user_idx").on(t.userId),
    check("memberships_role_check", sql`${t.role} in ('owner', 'admin', 'member', 'viewer')`),
  ],
);

export type MembershipRow = typeof memberships.$inferSelect;
export type Role = MembershipRow["role"];
