import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "tests/unit/**/*.test.ts"],
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
