import path from "node:path";
import { defineConfig } from "vitest/config";

// The scale-out test (tests/scale): two app servers on one Postgres and Redis. Not part of `npm test` (the embedded
// defaults cannot be shared by two processes); .ci/run runs it with DATABASE_URL and REDIS_URL set:
// `npx vitest run --config vitest.scale.config.ts`.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    name: "scale",
    include: ["tests/scale/**/*.test.ts"],
    globalSetup: ["tests/scale/build.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
