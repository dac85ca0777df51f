// Reads the generated OpenAPI document for the reference page: $ref resolution and JSON Schema → rows of fields.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
}

export type Components = Record<string, JsonSchema>;

export const refName = (ref: string) => ref.split("/").pop() ?? ref;

export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  let current = schema;
  for (let i = 0; i < 10 && current.$ref; i++) current = components[refName(current.$ref)] ?? {};
  return current;
}

/** A short human type: "string (uuid)", "number | null", "Location", "array of Location". */
export function typeLabel(schema: JsonSchema, components: Components): string {
  if (schema.$ref) return refName(schema.$ref);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((v) => typeLabel(v, components)).join(" | ");
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types
    .map((t) => {
      if (t === "array") return `array of ${schema.items ? typeLabel(schema.items, components) : "any"}`;
      if (t === "string" && schema.format) return `string (${schema.format})`;
      return t;
    })
    .join(" | ");
  return label || "any";
}

/** Bounds worth telling a reader: "1–100 chars", "≥ 0", "1–1000 items". */
export function constraints(schema: JsonSchema): string[] {
  const out: string[] = [];
  const range = (lo: number | undefined, hi: number | undefined, unit: string) => {
    if (lo !== undefined && hi !== undefined) out.push(`${lo}–${hi}${unit}`);
    else if (lo !== undefined) out.push(`≥ ${lo}${unit}`);
    else if (hi !== undefined) out.push(`≤ ${hi}${unit}`);
  };
  range(schema.minLength, schema.maxLength, " chars");
  range(schema.minimum, schema.maximum ?? schema.exclusiveMaximum, "");
  if (schema.exclusiveMaximum !== undefined && schema.maximum === undefined) out[out.length - 1] += " (exclusive)";
  range(schema.minItems, schema.maxItems, " items");
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
  constraints: string[];
}

export function fieldRows(schema: JsonSchema, components: Components): FieldRow[] {
  const resolved = resolve(schema, components);
  const required = new Set(resolved.required ?? []);
  return Object.entries(resolved.properties ?? {}).map(([name, prop]) => {
    const nullableVariants = (prop.anyOf ?? []).filter((v) => v.type !== "null");
    const describedBy = nullableVariants.length === 1 ? { ...resolve(nullableVariants[0]!, components), ...prop } : prop;
    return {
      name,
      type: typeLabel(prop, components),
      required: required.has(name),
      description: describedBy.description ?? "",
      constraints: constraints(nullableVariants.length === 1 ? { ...nullableVariants[0]!, ...prop } : prop),
    };
  });
}
