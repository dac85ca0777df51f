import { describe, expect, it } from "vitest";
import { newAccount, request, type TestAccount } from "../harness/client";

// A barrage of malformed bodies against every POST and PATCH the OpenAPI document lists: each must get a 4xx JSON
// error envelope, never a 5xx, and the server must stay healthy.

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minLength?: number;
  maxLength?: number;
};

const DEEP = 20_000;
const RAW_BODIES: Array<[string, string]> = [
  ["empty", ""],
  ["not json", "not json at all"],
  ["truncated", '{"name": "x"'],
  ["null", "null"],
  ["array", "[]"],
  ["number", "123"],
  ["string", '"hello"'],
  ["boolean", "true"],
  ["NaN literal", '{"latitude": NaN, "longitude": 1, "name": "x"}'],
  ["Infinity literal", '{"latitude": Infinity}'],
  ["huge exponent", '{"latitude": 1e400, "longitude": -1e400, "radius": 1e400, "name": "x"}'],
  ["lone surrogate", '{"name": "\\ud800"}'],
  ["deep arrays", `{"name": ${"[".repeat(DEEP)}${"]".repeat(DEEP)}}`],
  ["deep objects in metadata", `{"name": "x", "metadata": ${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}}`],
  ["proto key", '{"__proto__": {"admin": true}, "name": "x"}'],
  ["constructor key", '{"constructor": {"prototype": {"admin": true}}, "name": "x"}'],
  ["proto in metadata", '{"name": "x", "metadata": {"__proto__": {"polluted": true}}}'],
  ["nested proto in metadata", '{"name": "x", "metadata": {"a": [{"constructor": {"prototype": {"p": 1}}}]}}'],
  ["duplicate keys", '{"name": "a", "name": 5}'],
  ["control chars", '{"name": "\\u0000\\u0001"}'],
];
const CANDIDATES: unknown[] = [null, true, 0, -1, 1.5e308, "", "x".repeat(200_000), [], [1, "a"], {}, { nested: { deeper: [null] } }];

const resolve = (s: Schema, components: Record<string, Schema>): Schema => (s.$ref ? components[s.$ref.split("/").pop()!] ?? {} : s);
const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? "number" : typeof v);

/** Every property of a request body schema (all variants of a union), resolved. */
function fieldsOf(schema: Schema | undefined, components: Record<string, Schema>): Array<[string, Schema]> {
  if (!schema) return [];
  const resolved = resolve(schema, components);
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants) return variants.flatMap((v) => fieldsOf(v, components));
  return Object.entries(resolved.properties ?? {}).map(([k, v]) => [k, resolve(v, components)]);
}

/** Values that no schema of this field accepts: the wrong JSON type, an empty string where one is required, too long. */
function wrongValues(field: Schema, components: Record<string, Schema>): unknown[] {
  const variants = (field.anyOf ?? field.oneOf ?? [field]).map((v) => resolve(v, components));
  const allowed = new Set(variants.flatMap((v) => (Array.isArray(v.type) ? v.type : v.type ? [v.type] : [])).map((t) => (t === "integer" ? "number" : t)));
  if (allowed.size === 0) return [];
  const str = variants.find((v) => v.type === "string");
  return CANDIDATES.filter((value) => {
    if (!allowed.has(jsonType(value))) return true;
    if (typeof value !== "string" || !str) return false;
    return (value === "" && (str.minLength ?? 0) >= 1) || (str.maxLength !== undefined && value.length > str.maxLength);
  });
}

/** Creates the objects a path names, so the body is what the request gets past the lookup with. */
async function concretePath(path: string, owner: TestAccount): Promise<string> {
  let out = path;
  if (out.includes("{trackableId}")) {
    const t = await owner.api("POST", "/trackables", { name: "barrage" });
    out = out.replace("{trackableId}", t.body.id);
  }
  if (out.includes("{geofence_id}")) {
    const g = await owner.api("POST", "/geofences", { name: "barrage", latitude: 1, longitude: 1, radius: 100 });
    out = out.replace("{geofence_id}", g.body.id);
  }
  return out.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
}

describe("malformed body barrage", async () => {
  const doc = (await request("GET", "/api/v1/openapi.json")).body;
  const targets: Array<{ method: string; path: string; bodyRequired: boolean; fields: Array<[string, unknown[]]> }> = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const method of ["post", "patch"]) {
      const op = item[method];
      // JSON bodies only: a file upload (an import's multipart or raw file) has no fields to get wrong.
      const json = op?.requestBody?.content?.["application/json"];
      if (!json) continue;
      const fields = fieldsOf(json.schema, doc.components.schemas);
      targets.push({
        method: method.toUpperCase(),
        path,
        bodyRequired: op.requestBody.required === true,
        fields: fields.map(([name, schema]) => [name, wrongValues(schema, doc.components.schemas)]),
      });
    }
  }

  it("covers at least the trackable and location writes", () => {
    expect(targets.map((t) => `${t.method} ${t.path}`)).toEqual(
      expect.arrayContaining(["POST /trackables", "PATCH /trackables/{trackableId}", "POST /trackables/{trackableId}/locations"]),
    );
  });

  for (const target of targets) {
    it(`${target.method} ${target.path}: every malformed body is a 4xx JSON error`, async () => {
      const owner = await newAccount();
      const path = await concretePath(target.path, owner);
      let key = owner.key;
      let used = 0;
      const send = async (body: string) => {
        if (++used % 80 === 0) key = await owner.newKey(); // stay under the per-key rate limit
        return request(target.method, `/api/v1${path}`, { key, body, headers: { "Content-Type": "application/json" } });
      };
      // An empty body is valid where the document says the body may be left out (every field has a default).
      const cases: Array<[string, string]> = RAW_BODIES.filter(([label]) => target.bodyRequired || label !== "empty");
      for (const [field, values] of target.fields) {
        for (const value of values) cases.push([`${field}=${JSON.stringify(value).slice(0, 40)}`, JSON.stringify({ [field]: value })]);
      }
      for (const [label, body] of cases) {
        const res = await send(body);
        expect(res.status, `${label} → ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${label} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
        expect(res.body?.error?.code, label).toEqual(expect.any(String));
        expect(res.body?.error?.message, label).toEqual(expect.any(String));
      }
      const health = await request("GET", "/api/health");
      expect(health.status).toBe(200);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  }
});
