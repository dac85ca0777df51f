// npm run --silent user:reset-password -- --email <dashboard user>
// Prints a single-use link, valid for one hour, that sets a new password for that user (for servers without SMTP_URL).
import { parseArgs } from "node:util";
import { ResetLinkInput, resetLinkFor } from "@/lib/auth/password-reset";
import { callServer, fail, runOperatorCommand } from "./operator";

const USAGE = "usage: npm run --silent user:reset-password -- --email <dashboard user>";

async function main() {
  let values;
  try {
    ({ values } = parseArgs({ options: { email: { type: "string" } } }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  const parsed = ResetLinkInput.safeParse(values);
  if (!parsed.success) fail(`${parsed.error.issues.map((i) => `${i.path.length ? `--${i.path.join(".")}: ` : ""}${i.message}`).join("\n")}\n${USAGE}`);

  const { link } = await runOperatorCommand(
    (db) => resetLinkFor(db, parsed.data.email),
    async () => (await callServer("POST", "/password-resets", parsed.data)) as { link: string },
  );
  process.stdout.write(`${link}\n`);
}

main().catch((err: unknown) => fail(`user:reset-password failed: ${err instanceof Error ? err.message : String(err)}`));
