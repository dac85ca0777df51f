// npm run --silent apikey:create -- --account <slug> [--plan free|enterprise] [--name <label>]
// Creates the account when needed and prints the new API key, alone, on stdout.
// With the embedded database held by a running server, the key is created through that server (the database may
// only be opened by one process); otherwise the database is opened (and migrated) here.
import { parseArgs } from "node:util";
import { provisionApiKey, ProvisionInput } from "@/lib/api-keys/provision";
import { dataDir, env } from "@/lib/config/env";
import { adminToken } from "@/lib/config/secrets";
import { closeDb, getDbHandle } from "@/lib/db/client";
import { EmbeddedDatabaseBusyError, readEmbeddedLock } from "@/lib/db/embedded-lock";

const USAGE = "usage: npm run --silent apikey:create -- --account <slug> [--plan free|enterprise] [--name <label>]";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function throughServer(port: number, input: ProvisionInput): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/internal/provision`, {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken()}`, "Content-Type": "application/json" },
    body: JSON.stringify(input),
  }).catch((err: unknown) => fail(`The server that holds the embedded database (port ${port}) did not answer: ${String(err)}`));
  const body = (await res.json().catch(() => null)) as { key?: string; error?: { message: string } } | null;
  if (!res.ok || !body?.key) fail(`The server refused to create the key: ${body?.error?.message ?? `HTTP ${res.status}`}`);
  return body.key;
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { account: { type: "string" }, plan: { type: "string" }, name: { type: "string" } },
      strict: true,
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const parsed = ProvisionInput.safeParse(values);
  if (!parsed.success) {
    fail(`${parsed.error.issues.map((i) => `--${i.path.join(".")}: ${i.message}`).join("\n")}\n${USAGE}`);
  }

  if (!env().DATABASE_URL) {
    const holder = readEmbeddedLock(dataDir());
    if (holder?.role === "server" && holder.port) {
      process.stdout.write(`${await throughServer(holder.port, parsed.data)}\n`);
      return;
    }
  }
  try {
    const { db } = await getDbHandle("cli");
    const { key } = await provisionApiKey(db, parsed.data);
    process.stdout.write(`${key}\n`);
  } catch (err) {
    if (err instanceof EmbeddedDatabaseBusyError) fail(err.message);
    throw err;
  } finally {
    await closeDb();
  }
}

main().catch((err: unknown) => fail(`apikey:create failed: ${err instanceof Error ? err.message : String(err)}`));
