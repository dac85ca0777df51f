import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changesOf, REDACTED, SECRET_FIELDS } from "./changes";

const SECRETS = [...SECRET_FIELDS];
const plainKey = fc.constantFrom("name", "radius", "enabled", "tag", "events", "trackableIds", "url");
const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }), fc.array(fc.integer(), { maxLength: 3 }));
/** An object of ordinary fields, one level of nesting, and secrets whose values are unmistakable markers. */
const view = fc.record({
  plain: fc.dictionary(plainKey, leaf),
  nested: fc.option(fc.dictionary(plainKey, leaf), { nil: undefined }),
  secrets: fc.dictionary(fc.constantFrom(...SECRETS), fc.uuid().map((u) => `s3cr3t-${u}`)),
});
const build = (v: { plain: Record<string, unknown>; nested?: Record<string, unknown>; secrets: Record<string, string> }) => ({
  ...v.plain,
  ...(v.nested && { motion: { ...v.nested, ...v.secrets } }),
  ...v.secrets,
});

describe("changesOf", () => {
  it("reports nothing for an object compared with itself, whatever its key order", () => {
    fc.assert(
      fc.property(view, (v) => {
        const a = build(v);
        const reversed = Object.fromEntries(Object.entries(a).reverse());
        expect(changesOf(a, reversed)).toEqual({});
      }),
    );
  });

  it("never shows a secret's value, and reports a changed secret as redacted on the sides where it is set", () => {
    fc.assert(
      fc.property(view, view, (b, a) => {
        const before = build(b);
        const after = build(a);
        const changes = changesOf(before, after);
        expect(JSON.stringify(changes)).not.toContain("s3cr3t-");
        for (const field of SECRETS) {
          const was = (before as Record<string, unknown>)[field];
          const is = (after as Record<string, unknown>)[field];
          if (was === is) expect(changes[field]).toBeUndefined();
          else expect(changes[field]).toEqual([was == null ? null : REDACTED, is == null ? null : REDACTED]);
        }
      }),
    );
  });

  it("gives, for every ordinary field, the before and after values, and only for those that differ", () => {
    fc.assert(
      fc.property(fc.dictionary(plainKey, leaf), fc.dictionary(plainKey, leaf), (before, after) => {
        const changes = changesOf(before, after);
        for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
          const b = before[key] ?? null;
          const a = after[key] ?? null;
          if (JSON.stringify(b) === JSON.stringify(a)) expect(changes[key]).toBeUndefined();
          else expect(changes[key]).toEqual([b, a]);
        }
      }),
    );
  });

  it("compares values as their canonical JSON does: key order aside, absent and undefined as null, dates as text", () => {
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.integer({ min: -2, max: 2 }),
        fc.constantFrom(null, undefined, Number.NaN, -0, "a", true, new Date(0)),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b", "c"), tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    const canonicalText = (v: unknown): string =>
      v === undefined || v === null || (typeof v === "number" && !Number.isFinite(v))
        ? "null"
        : v instanceof Date
          ? JSON.stringify(v.toISOString())
          : Array.isArray(v)
            ? `[${v.map(canonicalText).join(",")}]`
            : typeof v === "object"
              ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalText((v as Record<string, unknown>)[k])}`).join(",")}}`
              : JSON.stringify(v);
    fc.assert(
      fc.property(value, value, (b, a) => {
        const changed = "field" in changesOf({ field: [b] }, { field: [a] });
        expect(changed).toBe(canonicalText(b) !== canonicalText(a));
      }),
      { numRuns: 3000 },
    );
  });

  it("names nested fields with dots, leaves out bookkeeping, and treats creation and deletion as null sides", () => {
    expect(changesOf({ motion: { stopMinutes: 5, maxSpeedKmh: 100 }, updatedAt: "a" }, { motion: { stopMinutes: 10, maxSpeedKmh: 100 }, updatedAt: "b" })).toEqual({
      "motion.stopMinutes": [5, 10],
    });
    expect(changesOf(null, { name: "Van", secret: "whsec_x", metadata: null, id: "1" })).toEqual({ name: [null, "Van"], secret: [null, REDACTED] });
    expect(changesOf({ name: "Van", config: { token: "tk_1", topic: "t" } }, null)).toEqual({
      name: ["Van", null],
      "config.token": [REDACTED, null],
      "config.topic": ["t", null],
    });
  });
});
