import fs from "node:fs";

const FILE = "e2e/.auth/user-credentials.json";

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

/** A new user for the setup project: unique per run, so a reused server never sees the address twice. */
export function newUser(): TestUser {
  return { name: "Ada Lovelace", email: `ada+${Date.now().toString(36)}@example.com`, password: "correct horse battery staple" };
}

export const saveUser = (user: TestUser) => fs.writeFileSync(FILE, JSON.stringify(user));

/** The user the setup project signed up (specs run in other workers, so it is read from disk). */
export const savedUser = (): TestUser => JSON.parse(fs.readFileSync(FILE, "utf8")) as TestUser;
