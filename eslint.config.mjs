// ESLint flat config: typescript-eslint's recommended rules, and the layering rule of STYLE.md practice 1.
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

const noSqlInApp = "No SQL in app/: call a lib/ verb (STYLE.md practice 1)";

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
    // The test harness returns loosely typed JSON bodies.
    files: ["tests/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
