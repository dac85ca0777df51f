import { e2eServer } from "./e2e/support/server";
import { defineConfig, devices } from "@playwright/test";

// The suite runs against the built app (`npm start`) with a data directory of its own, emptied at each start.
// E2E_PORT picks the port (default 3100) so several checkouts can run it side by side.
const { port, baseURL, dataDir, retryDelaysMs } = e2eServer;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's chromium (Playwright cannot download its own browser here), quiet on a closed network.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, storageState: "e2e/.auth/user.json" },
      dependencies: ["setup"],
    },
  ],
  webServer: {
    command: `node -e "require('fs').rmSync(process.argv[1],{recursive:true,force:true})" ${dataDir} && npm start`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 300_000,
    stdout: "pipe",
    env: {
      PORT: String(port),
      APP_URL: baseURL,
      DATA_DIR: dataDir,
      // The receivers of the suite listen on 127.0.0.1 over http.
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_RETRY_DELAYS: retryDelaysMs,
      DEFAULT_PLAN: "enterprise",
      // Every sign-up and sign-in of the suite comes from 127.0.0.1: lift the per-address budgets (the per-email-and-
      // address one, which a spec exercises, stays).
      SIGNIN_RATE_LIMIT_PER_IP: "1000",
      SIGNUP_RATE_LIMIT_PER_IP: "1000",
      AUTH_FAILURE_LIMIT_PER_IP: "1000",
      // Maps must render without tiles: point them at a closed local port instead of the internet.
      NEXT_PUBLIC_MAP_TILE_URL: "http://127.0.0.1:9/{z}/{x}/{y}.png",
      DATABASE_URL: "",
      REDIS_URL: "",
    },
  },
});
