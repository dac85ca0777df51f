// npm run --silent apikey:create -- --account <slug> | --email <dashboard user> [--plan free|enterprise] [--name <label>]
//   [--scopes a,b] (comma-separated, e.g. locations:write,trackables:read; absent = "*", every scope)
// Prints a new API key, alone, on stdout: for the account with that slug (created when needed), or for the workspace
// of the dashboard user who signs in with that email (the one the dashboard shows).
import { parseArgs } from "node:util";
import { provisionApiKey, ProvisionInput } from "@/lib/api-keys/provision";
import { splitScopes } from "@/lib/api-keys/scopes";
import { callServer, fail, runOperatorCommand } from "./operator";

const USAGE = "usage: npm run --silent apikey:create -- (--account <slug> | --email <dashboard user>) [--plan free|enterprise] [--name <label>] [--scopes locations:write,trackables:read]";

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { account: { type: "string" }, email: { type: "string" }, plan: { type: "string" }, name: { type: "string" }, scopes: { type: "string" } } }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const parsed = ProvisionInput.safeParse({ ...values, scopes: values.scopes === undefined ? undefined : splitScopes(values.scopes) });
  if (!parsed.success) fail(`${parsed.error.issues.map((i) => `${i.path.length ? `--${i.path.join(".")}: ` : ""}${i.message}`).join("\n")}\n${USAGE}`);

  const key = await runOperatorCommand(
    async (db) => (await provisionApiKey(db, parsed.data)).key,
    async () => ((await callServer("POST", "/api-keys", parsed.data)) as { key: string }).key,
  );
  process.stdout.write(`${key}\n`);
}

main().catch((err: unknown) => fail(`apikey:create failed: ${err instanceof Error ? err.message : String(err)}`));
