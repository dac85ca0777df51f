import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvSchema } from "@/lib/config/env";

// The README's configuration table and lib/config/env.ts name the same variables: a variable added to the schema and
// not documented (or documented and no longer read) fails here.

function documented(): string[] {
  const readme = fs.readFileSync(path.join(process.cwd(), "README.md"), "utf8");
  const section = /\n## Configuration\n([\s\S]*?)\n## /.exec(readme)?.[1];
  if (!section) throw new Error("README.md has no Configuration section");
  const names = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
  return [...new Set(names)].sort();
}

describe("the README's configuration table", () => {
  it("lists every variable the server reads, and no other", () => {
    expect(documented()).toEqual(Object.keys(EnvSchema.shape).sort());
  });
});
