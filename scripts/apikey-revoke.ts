// npm run --silent apikey:revoke -- --id <keyId>
// Revokes an API key: requests with it get 401 from then on.
import { parseArgs } from "node:util";
import { z } from "zod";
import { revokeApiKeyById } from "@/lib/api-keys/keys";
import { callServer, fail, runOperatorCommand } from "./operator";

const USAGE = "usage: npm run --silent apikey:revoke -- --id <keyId>";

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { id: { type: "string" } } }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const id = z.uuid().safeParse(values.id);
  if (!id.success) fail(`--id: must be the key's id (a UUID)\n${USAGE}`);
  await runOperatorCommand(
    async (db) => {
      if (!(await revokeApiKeyById(db, id.data))) fail(`No active API key with id ${id.data}`);
    },
    async () => {
      await callServer("DELETE", `/api-keys/${id.data}`);
    },
  );
  console.error(`Revoked API key ${id.data}`);
}

main().catch((err: unknown) => fail(`apikey:revoke failed: ${err instanceof Error ? err.message : String(err)}`));
