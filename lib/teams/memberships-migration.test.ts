import { PGlite } from "@electric-sql/pglite";
import { cube } from "@electric-sql/pglite/contrib/cube";
import { earthdistance } from "@electric-sql/pglite/contrib/earthdistance";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { expect, it } from "vitest";
import { migrationsBefore } from "@/tests/support/migrations";

// The memberships migration on a database that has users from before it: each joins the workspace they were created
// in, the earliest of each workspace as its owner, the others as admins.

it("backfills a membership for every existing user: the first of each workspace owns it", async () => {
  const client = await PGlite.create({ extensions: { cube, earthdistance } });
  const db = drizzle({ client });
  await migrate(db, { migrationsFolder: migrationsBefore("0026_memberships") });
  await client.exec(`
    insert into accounts (id, slug, name, plan) values
      ('00000000-0000-7000-8000-00000000000a', 'a', 'A', 'free'),
      ('00000000-0000-7000-8000-00000000000b', 'b', 'B', 'free');
    insert into users (id, account_id, email, created_at) values
      ('00000000-0000-7000-8000-000000000002', '00000000-0000-7000-8000-00000000000a', 'second@example.com', '2026-02-01'),
      ('00000000-0000-7000-8000-000000000001', '00000000-0000-7000-8000-00000000000a', 'first@example.com', '2026-01-01'),
      ('00000000-0000-7000-8000-000000000003', '00000000-0000-7000-8000-00000000000a', 'third@example.com', '2026-03-01'),
      ('00000000-0000-7000-8000-000000000004', '00000000-0000-7000-8000-00000000000b', 'only@example.com', '2026-05-01');
  `);
  await migrate(db, { migrationsFolder: "drizzle" });
  const { rows } = await client.query<{ email: string; account: string; role: string }>(
    `select u.email, a.slug as account, m.role from memberships m join users u on u.id = m.user_id join accounts a on a.id = m.account_id order by u.email`,
  );
  expect(rows).toEqual([
    { email: "first@example.com", account: "a", role: "owner" },
    { email: "only@example.com", account: "b", role: "owner" },
    { email: "second@example.com", account: "a", role: "admin" },
    { email: "third@example.com", account: "a", role: "admin" },
  ]);
  // Exactly one owner per workspace, held by the database.
  await expect(
    client.query(`update memberships set role = 'owner' where user_id = '00000000-0000-7000-8000-000000000002'`),
  ).rejects.toThrow(/memberships_one_owner_key/);
  await client.close();
}, 120_000);
