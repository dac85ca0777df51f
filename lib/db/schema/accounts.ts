import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

export const accounts = pgTable(
  "accounts",
  {
    id: id(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    plan: text("plan", { enum: ["free", "enterprise"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // apikey:create finds (or creates) an account by its slug.
    uniqueIndex("accounts_slug_key").on(t.slug),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;
