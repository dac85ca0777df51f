import { parse, stringify, validate, version } from "uuid";
import { describe, expect, it } from "vitest";
import { newId } from "./ids";

describe("newId", () => {
  it("makes valid, unique UUIDv7s that increase strictly, many within one millisecond", () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (const id of ids) expect(validate(id) && version(id)).toBe(7);
    // uuid's own text for the same bytes (lowercase, dashes in place).
    for (const id of ids.slice(0, 500)) expect(stringify(parse(id))).toBe(id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} then ${ids[i]}`).toBe(true);
  });

  it("carries the current time in its first 48 bits", () => {
    const before = Date.now();
    const id = newId();
    const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    // Within a millisecond or two of now (a sequence wrap moves it ahead by one).
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 2);
  });

  it("draws its random bits from the pool across refills (no two ids share their random tail)", () => {
    const tails = new Set(Array.from({ length: 1_000 }, () => newId().slice(-12)));
    expect(tails.size).toBe(1_000);
  });
});
