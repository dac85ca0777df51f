import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layering the ESLint config enforces: app/ holds routes and pages only (nothing imports from it), and lib/ is the
// product, which renders nothing (it never imports components/). Checked on the rule itself, so a config edit that
// drops it fails here rather than letting the import graph drift.
const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("import layering", () => {
  it("refuses an import of app/ from lib/ and from components/", async () => {
    const source = 'import { createGeofenceAction } from "@/app/(dashboard)/geofences/actions";\nexport const a = createGeofenceAction;\n';
    expect(await restricted("lib/geofences/example.ts", source)).toEqual([expect.stringContaining("app/ holds routes and pages only")]);
    expect(await restricted("components/geofences/example.tsx", source)).toEqual([expect.stringContaining("app/ holds routes and pages only")]);
  });

  it("refuses an import of components/ from lib/, and allows it from app/", async () => {
    const source = 'import { Time } from "@/components/ui/time";\nexport const t = Time;\n';
    expect(await restricted("lib/dashboard/example.ts", source)).toEqual([expect.stringContaining("lib/ must not depend on components/")]);
    expect(await restricted("app/(dashboard)/example/page.tsx", source)).toEqual([]);
  });

  it("allows lib/ verbs and actions from components/", async () => {
    const source = 'import { createGeofenceAction } from "@/lib/geofences/actions";\nexport const a = createGeofenceAction;\n';
    expect(await restricted("components/geofences/example.tsx", source)).toEqual([]);
  });
});
