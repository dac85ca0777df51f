import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { id, ts } from "./columns";

/** `{field: [before, after]}`: null before on creation, null after on deletion; secrets as a marker (lib/audit/changes.ts). */
export type AuditChanges = Record<string, [unknown, unknown]>;

// Every change to a workspace's configuration, written in the transaction that makes it (lib/audit/audit.ts). The
// actor's name is a snapshot: the entry still reads right after the key is revoked or the user renamed, so actor_id
// carries no foreign key. Deleting the account deletes its log.
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    occurredAt: ts("occurred_at").notNull().defaultNow(),
    actorType: text("actor_type", { enum: ["user", "apiKey"] }).notNull(),
    actorId: uuid("actor_id").notNull(),
    actorName: text("actor_name").notNull(),
    clientAddress: text("client_address"),
    action: text("action").notNull(),
    objectType: text("object_type").notNull(),
    objectId: text("object_id").notNull(),
    changes: jsonb("changes").$type<AuditChanges>().notNull().default({}),
  },
  (t) => [
    // GET /audit-log pages an account's entries newest first by (occurred_at, id), with or without a time range.
    index("audit_log_account_occurred_idx").on(t.accountId, t.occurredAt.desc(), t.id.desc()),
    // "What did this key or user do": the actorId filter, same order.
    index("audit_log_actor_occurred_idx").on(t.accountId, t.actorId, t.occurredAt.desc(), t.id.desc()),
  ],
);

export type AuditLogRow = typeof auditLog.$inferSelect;
