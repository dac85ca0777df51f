import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isOwnMessage, packFrames, type Frame, type Message } from "./bus";

const frame: fc.Arbitrary<Frame> = fc.record({
  type: fc.constantFrom("geofence.entry", "location.updated", "battery.low"),
  trackableId: fc.uuid(),
  geofenceId: fc.option(fc.uuid(), { nil: null }),
  eventId: fc.option(fc.uuid(), { nil: null }),
  cursor: fc.option(fc.base64String({ maxLength: 120 }), { nil: null }),
  // Multi-byte characters too: the limit is in bytes.
  data: fc.string({ unit: "binary", maxLength: 3000 }),
});

describe("packFrames", () => {
  it("every notification fits, and the frames come out in order: whole, or as their event's id when too large", () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 40 }), fc.integer({ min: 500, max: 8000 }), (frames, max) => {
        const texts = packFrames("server", "account", frames, max);
        const out: Array<Frame | string> = [];
        for (const text of texts) {
          expect(Buffer.byteLength(text)).toBeLessThanOrEqual(max);
          const m = JSON.parse(text) as Message;
          // Each text is exactly the JSON of its message, this server's own.
          expect(text).toBe(JSON.stringify(m));
          expect(m.s).toBe("server");
          expect(isOwnMessage(text, "server")).toBe(true);
          if (m.k === "f") out.push(...m.f);
          else if (m.k === "r") out.push(...m.ids);
        }
        const base = Buffer.byteLength(JSON.stringify({ k: "f", s: "server", a: "account", f: [] }));
        const expected = frames
          .map((f) => (base + Buffer.byteLength(JSON.stringify(f)) > max ? f.eventId : f))
          .filter((f): f is Frame | string => f !== null);
        expect(out).toEqual(expected);
      }),
    );
  });

  it("tells this server's own notifications from another server's without parsing them", () => {
    const own = "0193a3c0-0000-7000-8000-000000000001";
    const other = "0193a3c0-0000-7000-8000-000000000002";
    for (const m of [
      { k: "f", s: other, a: "a", f: [] },
      { k: "r", s: other, a: "a", ids: [own] },
      { k: "w", s: other, a: [own] },
    ] satisfies Message[]) {
      expect(isOwnMessage(JSON.stringify(m), own)).toBe(false);
      expect(isOwnMessage(JSON.stringify({ ...m, s: own }), own)).toBe(true);
    }
  });

  it("packs small frames together", () => {
    const f: Frame = { type: "location.updated", trackableId: "t", geofenceId: null, eventId: null, cursor: null, data: "{}" };
    expect(packFrames("s", "a", Array.from({ length: 50 }, () => f))).toHaveLength(1);
  });
});
