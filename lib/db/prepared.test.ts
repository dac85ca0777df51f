import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openUnitDb } from "@/tests/support/unit-db";
import { PREPARE_MAX_PARAMETERS } from "./client";
import { queryRows } from "./rows";
import { accounts } from "./schema";

// Statements with few parameters are prepared on the connection (lib/db/client.ts), in and out of transactions; big
// ones are not, so a connection keeps a bounded set. Read from pg_prepared_statements, which shows the statements of
// the connection that asks: the checks run inside a transaction, which holds one connection.
let unit: Awaited<ReturnType<typeof openUnitDb>>;

beforeAll(async () => {
  unit = await openUnitDb("prepared");
}, 120_000);
afterAll(async () => unit?.close());

const preparedOnThisConnection = async (tx: Parameters<Parameters<typeof unit.db.transaction>[0]>[0]) =>
  (await queryRows<{ statement: string }>(tx, "select statement from pg_prepared_statements", [])).map((r) => r.statement);

describe("prepared statements", () => {
  it("prepares a drizzle query with parameters and reuses it; leaves one with more than the limit unnamed", async () => {
    const marker = `prepared-${Date.now()}`;
    const many = Array.from({ length: PREPARE_MAX_PARAMETERS + 1 }, (_, i) => `${marker}-${i}`);
    await unit.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.slug, marker));
      await tx.select({ id: accounts.id }).from(accounts).where(inArray(accounts.slug, many));
      await tx.execute(sql`select ${marker}::text as marker`);
      const statements = await preparedOnThisConnection(tx);
      const bySlug = statements.filter((s) => s.includes(`"accounts"."slug" = $1`));
      expect(bySlug).toHaveLength(1); // three runs, one statement
      expect(statements.filter((s) => s.includes(`$${PREPARE_MAX_PARAMETERS + 1}`))).toEqual([]);
      expect(statements.some((s) => s.includes("$1::text as marker"))).toBe(true);
    });
  });

  it("queryRows binds positional parameters and prepares the statement", async () => {
    await unit.db.transaction(async (tx) => {
      const rows = await queryRows<{ sum: number; label: string }>(tx, "select ($1::int4 + $2::int4) as sum, $3::text as label", [40, 2, "answer"]);
      expect(rows).toEqual([{ sum: 42, label: "answer" }]);
      expect((await preparedOnThisConnection(tx)).some((s) => s.includes("$3::text as label"))).toBe(true);
    });
  });
});
