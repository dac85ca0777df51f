import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { request } from "../harness/client";

const API_DIR = path.join(process.cwd(), "app", "api", "v1");

/** Every route file under app/api/v1, as an OpenAPI path ("/trackables/{trackableId}/locations"). */
function routePaths(dir = API_DIR, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("[[...")) continue; // the catch-all 404
      const segment = entry.name.replace(/^\[(.+)\]$/, "{$1}");
      out.push(...routePaths(path.join(dir, entry.name), `${prefix}/${segment}`));
    } else if (entry.name === "route.ts" && prefix !== "/openapi.json") {
      out.push(prefix);
    }
  }
  return out;
}

describe("OpenAPI document", () => {
  it("is served without a key and is a valid OpenAPI 3.1 document", async () => {
    const res = await request("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route under /api/v1, and every documented operation exists", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.keys(doc.paths).sort();
    expect(documented).toEqual(routePaths().sort());
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        const concrete = p.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
        const res = await request(method.toUpperCase(), `/api/v1${concrete}`, { body: method === "get" || method === "delete" ? undefined : {} });
        // Unauthenticated: the route exists and answers with the 401 envelope (not a 404 or 405).
        expect(res.status, `${method} ${p}`).toBe(401);
      }
    }
  });

  it("every operation documents its errors with the envelope and its rate-limit headers", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    for (const [p, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.operationId, `${method} ${p}`).toBeTruthy();
        expect(op.responses["401"], `${method} ${p}`).toBeDefined();
        expect(op.responses["429"].headers["Retry-After"], `${method} ${p}`).toBeDefined();
        const ok = Object.keys(op.responses).find((s) => s.startsWith("2"))!;
        expect(op.responses[ok].headers["X-RateLimit-Remaining"], `${method} ${p}`).toBeDefined();
      }
    }
  });

  it("the API reference page renders every operation", async () => {
    const res = await fetch(`${(await import("../harness/client")).baseUrl()}/docs/api`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    for (const item of [...Object.values<Record<string, any>>(doc.paths), ...Object.values<Record<string, any>>(doc.webhooks)]) {
      for (const op of Object.values<any>(item)) expect(html).toContain(`id="${op.operationId}"`);
    }
  });

  it("has a webhooks section: every event kind with its payload schema and the headers of a delivery", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    const { WEBHOOK_EVENTS } = await import("@/lib/db/schema/webhooks");
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const [event, item] of Object.entries<any>(doc.webhooks)) {
      const headers = item.post.parameters.filter((p: any) => p.in === "header").map((p: any) => p.name);
      expect(headers, event).toEqual(expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature", "X-Service-Event", "X-Service-Delivery", "X-Service-Signature"]));
      const ref = item.post.requestBody.content["application/json"].schema.$ref as string;
      const payload = doc.components.schemas[ref.replace("#/components/schemas/", "")];
      expect(payload.properties.event.const, event).toBe(event);
      expect(payload.required, event).toEqual(expect.arrayContaining(["event", "occurred_at", "beacon"]));
    }
  });

  it("test-webhook's two answers are a oneOf; request fields with defaults are optional; response enums are enums", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json")).body;
    const answer = doc.paths["/geofences/{geofence_id}/test-webhook"].post.responses["200"].content["application/json"].schema;
    expect(doc.components.schemas[answer.$ref.replace("#/components/schemas/", "")].oneOf).toHaveLength(2);
    const create = doc.paths["/webhooks"].post.requestBody.content["application/json"].schema;
    expect(create.required).toEqual(["url", "events"]);
    expect(create.properties.enabled.default).toBe(true);
    expect(doc.components.schemas.Webhook.properties.disabledReason.anyOf ?? doc.components.schemas.Webhook.properties.disabledReason.enum).toBeTruthy();
    expect(JSON.stringify(doc.components.schemas.Delivery.properties.event)).toContain("geofence.entry");
  });
});
