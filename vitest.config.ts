import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const UNIT_GLOBS = ["lib/**/*.test.ts", "tests/unit/**/*.test.ts"];

// Unit test files that open a database (a test database, the app's client), use Redis (REDIS_URL) or start the app.
// They run in the `unit-db` project, which .ci/run runs again on Postgres and Redis beside the API suite; the rest
// (`unit`) touch neither, so a second run there would only repeat them. Read from each file's source, so a new test
// lands on the right side without a list to keep.
const USES_A_SERVICE = /openUnitDb|getDbHandle|getDb\(|DATABASE_URL|REDIS_URL|tests\/harness/;
const unitFiles = ["lib", "tests/unit"].flatMap((dir) =>
  (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f)),
);
const dbUnitFiles = unitFiles.filter((f) => USES_A_SERVICE.test(fs.readFileSync(path.join(root, f), "utf8")));

export default defineConfig({
  resolve: { alias: { "@": path.resolve(root) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT_GLOBS,
          exclude: ["**/node_modules/**", ...dbUnitFiles],
          testTimeout: 30_000,
          // Capture servers and worker threads start in hooks; beside two other workers that can take seconds.
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "unit-db",
          include: dbUnitFiles.length > 0 ? dbUnitFiles : ["no-database-unit-tests"],
          testTimeout: 30_000,
          // Opening and migrating a real database in a hook takes seconds, and much longer beside other workers.
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          // One real server (scripts/serve.ts) for the whole suite, started and stopped by the global setup.
          globalSetup: ["tests/harness/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
