import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Where the suite's server runs: E2E_PORT (default 3100) and a data directory of its own, emptied at each start.
const port = Number(process.env.E2E_PORT ?? 3100);
export const e2eServer = {
  port,
  baseURL: `http://localhost:${port}`,
  dataDir: path.resolve(`.data-e2e-${port}`),
  retryDelaysMs: "1000,2000,3000",
};

/**
 * The operator's admin token, which `npm run apikey:create` uses to provision keys and set an account's plan. Like the
 * CLI, the first user of it creates it in the data directory (lib/config/secrets.ts), and the server reads it from there.
 */
export function adminToken(): string {
  const file = path.join(e2eServer.dataDir, "admin-token");
  try {
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return fs.readFileSync(file, "utf8").trim();
}
