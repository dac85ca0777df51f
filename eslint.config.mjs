// ESLint flat config: typescript-eslint's recommended rules, and the layering rules of STYLE.md (no SQL in app/; nothing imports app/; lib/ never imports components/).
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

const noSqlInApp = "No SQL in app/: call a lib/ verb (STYLE.md practice 1)";
// app/ holds routes and pages only: nothing imports from it. lib/ is the product and renders nothing.
const noAppImport = { group: ["@/app", "@/app/*"], message: "app/ holds routes and pages only: put the code in lib/<domain> and import it from there" };
const noComponentsInLib = { group: ["@/components", "@/components/*"], message: "lib/ must not depend on components/: move what both need into lib/" };

export default defineConfig(
  { ignores: [".next/**", "node_modules/**", "drizzle/**", ".data/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommended],
  },
  {
    files: ["app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "drizzle-orm", message: noSqlInApp },
            { name: "postgres", message: noSqlInApp },
            { name: "@electric-sql/pglite", message: noSqlInApp },
          ],
          patterns: [
            { group: ["drizzle-orm/*"], message: noSqlInApp },
            { group: ["@electric-sql/pglite/*"], message: noSqlInApp },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [noAppImport] }] },
  },
  {
    files: ["lib/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [noAppImport, noComponentsInLib] }] },
  },
  {
    // The test harness returns loosely typed JSON bodies.
    files: ["tests/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
