import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

export const accounts = pgTable(
  "accounts",
  {
    id: id(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "enterprise"] }).notNull(),
    // Bumped in the same transaction as every change to the account's geofences or their assignments: evaluation
    // reads it to know whether the geofences it holds in memory are current (lib/geofences/fence-cache.ts).
    geofencesVersion: integer("geofences_version").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    // apikey:create finds (or creates) an account by its slug.
    uniqueIndex("accounts_slug_key").on(t.slug),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
