import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, env } from "./env";

/**
 * A secret generated on first use and kept in the data directory (mode 0600), so it survives restarts without the
 * operator having to set it: the session secret (AUTH_SECRET unset) and the local admin token.
 */
export function persistedSecret(name: string, bytes = 32): string {
  const dir = dataDir();
  const file = path.join(dir, name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = randomBytes(bytes).toString("base64url");
  try {
    fs.writeFileSync(file, value, { mode: 0o600, flag: "wx" });
    return value;
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw err;
  }
}

/** Authorizes the local provisioning endpoint that apikey:create uses while a server holds the embedded database. */
export const adminToken = () => persistedSecret("admin-token");

/** AUTH_SECRET, or one generated on first start and kept in the data directory: sessions and stream tokens are signed with it. */
export const authSecret = (): string => env().AUTH_SECRET ?? persistedSecret("auth-secret");
