import { index, pgTable, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, ts } from "./columns";

// A request to export the workspace. The zip is built from the database each time it is downloaded (lib/exports),
// so the row records only who asked and when; there is no file to keep, expire or clean up.
export const accountExports = pgTable(
  "account_exports",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    // An export is looked up by id within its account.
    index("account_exports_account_idx").on(t.accountId, t.id),
  ],
);

export type AccountExportRow = typeof accountExports.$inferSelect;
