import { doublePrecision, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";
import { createdAt, id, updatedAt } from "./columns";

// A circle where fixes are not kept as sent: dropped, or blurred to the centre (lib/privacy-zones). `trackable_ids`
// null: the zone applies to all of the account's trackables.
export const privacyZones = pgTable(
  "privacy_zones",
  {
    id: id(),
    accountId: uuid("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    radius: doublePrecision("radius").notNull(),
    trackableIds: uuid("trackable_ids").array(),
    mode: text("mode", { enum: ["drop", "blur"] }).notNull().default("drop"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The API lists an account's zones newest first, paged by id; ingestion loads all of an account's zones.
    index("privacy_zones_account_idx").on(t.accountId, t.id),
  ],
);

export type PrivacyZoneRow = typeof privacyZones.$inferSelect;
