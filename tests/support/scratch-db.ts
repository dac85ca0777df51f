import { randomBytes } from "node:crypto";

/**
 * A throwaway database on the Postgres at `baseUrl` (tests and benchmarks never use the shared one directly: it may
 * hold another schema), with the function that drops it.
 */
export async function scratchPostgres(baseUrl: string, prefix = "fenceline_test"): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
