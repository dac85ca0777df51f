import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";

// The contract's promise about generated clients: openapi-typescript (default options) on the OpenAPI document,
// plus openapi-fetch, compiles the README's typed-client example — and a wrong call does not compile.

const root = process.cwd();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-client-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function readmeExample(): string {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const match = /<!-- typed-client -->\n```ts\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error("README.md has no typed-client example");
  return match[1]!;
}

function tsc(files: string[]) {
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"], types: ["node"], skipLibCheck: true },
      files,
    }),
  );
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe("a client generated from the OpenAPI document", () => {
  it("compiles the README's calls with openapi-typescript's default options and openapi-fetch", async () => {
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const ast = await openapiTS(JSON.parse(JSON.stringify(openApiDocument())));
    fs.writeFileSync(path.join(dir, "fenceline.d.ts"), astToString(ast));
    fs.writeFileSync(path.join(dir, "readme.ts"), `${readmeExample()}\nexport {};\n`);
    const ok = tsc(["fenceline.d.ts", "readme.ts"]);
    expect(ok.output).toBe("");
    expect(ok.status).toBe(0);

    const types = fs.readFileSync(path.join(dir, "fenceline.d.ts"), "utf8");
    // Response enums are enums; the webhooks section is there.
    expect(types).toMatch(/status: "pending" \| "succeeded" \| "failed"/);
    expect(types).toContain('disabledReason: ("failing" | "gone") | null;');
    expect(types).toContain('events: ("geofence.entry" | "geofence.exit" | "geofence.dwell" | "location.updated" | "battery.low" | "device.status_changed" | "trip.started" | "trip.ended" | "speed.exceeded")[];');
    expect(types).toMatch(/export interface webhooks/);

    // The check can fail: calls the API would refuse do not compile.
    fs.writeFileSync(
      path.join(dir, "wrong.ts"),
      [
        'import createClient from "openapi-fetch";',
        'import type { paths } from "./fenceline";',
        "const api = createClient<paths>({});",
        'await api.POST("/trackables", { body: { type: "vehicle" } });',
        'await api.POST("/webhooks", { body: { url: "https://x", events: ["geofence.dwelled"] } });',
        'const t = await api.POST("/geofences/{geofence_id}/test-webhook", { params: { path: { geofence_id: "x" } } });',
        "if (t.data && !t.data.success) console.log(t.data.deliveryId);",
        "export {};",
      ].join("\n"),
    );
    const wrong = tsc(["fenceline.d.ts", "wrong.ts"]);
    expect(wrong.status).not.toBe(0);
    for (const line of [4, 5, 7]) expect(wrong.output).toContain(`wrong.ts(${line},`);
  }, 120_000);
});
