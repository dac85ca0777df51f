import { defineConfig } from "drizzle-kit";

// Migrations are generated from lib/db/schema and committed; the app applies them at start (lib/db/migrate.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
});
