import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchDeliveries, type MatchableEvent } from "./matching";

const T = ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"];
const G = ["00000000-0000-4000-8000-0000000000c1", "00000000-0000-4000-8000-0000000000c2"];
const C = ["00000000-0000-4000-8000-0000000000d1", "00000000-0000-4000-8000-0000000000d2", "00000000-0000-4000-8000-0000000000d3"];
const NOW = Date.parse("2026-11-25T12:00:00Z");

const event = (i: number) =>
  fc
    .record({
      type: fc.constantFrom("geofence.entry", "geofence.exit", "battery.low"),
      trackableId: fc.constantFrom(...T),
      geofenceId: fc.option(fc.constantFrom(...G), { nil: null }),
      ageMs: fc.integer({ min: 0, max: 3_600_000 }),
    })
    .map(
      (e): MatchableEvent => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        type: e.type,
        trackableId: e.trackableId,
        geofenceId: e.geofenceId,
        occurredAt: new Date(NOW - e.ageMs),
        location: null,
        durationSeconds: null,
        payload: null,
        trackableName: "Van",
        geofenceName: null,
      }),
    );
const events = fc.integer({ min: 0, max: 12 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => event(i))));
const rule = (i: number) =>
  fc.record({
    id: fc.constant(`00000000-0000-4000-8000-0000000001${String(i).padStart(2, "0")}`),
    eventTypes: fc.subarray(["geofence.entry", "geofence.exit", "battery.low"], { minLength: 1 }),
    trackableIds: fc.option(fc.subarray(T, { minLength: 1 }), { nil: null }),
    geofenceIds: fc.option(fc.subarray(G, { minLength: 1 }), { nil: null }),
    channelIds: fc.subarray(C, { minLength: 1 }),
    schedule: fc.constant(null),
    cooldownSeconds: fc.constantFrom(0, 60, 600),
    maxEventAgeSeconds: fc.constantFrom(300, 900, 7200),
    template: fc.constant(null),
  });
const rules = fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rule(i))));

describe("matchDeliveries", () => {
  it("sends an event to a channel at most once, keeps cooldowns apart, and marks stale exactly the old events", () => {
    fc.assert(
      fc.property(events, rules, fc.subarray(C), (evs, rs, enabled) => {
        const out = matchDeliveries({ events: evs, rules: rs, channels: new Set(enabled), lastNotified: [], now: new Date(NOW), appUrl: "https://x" });
        const pending = out.filter((d) => d.status === "pending");
        const pairs = pending.map((d) => `${d.eventId}|${d.channelId}`);
        expect(new Set(pairs).size).toBe(pairs.length);
        for (const d of out) {
          expect(enabled).toContain(d.channelId);
          const r = rs.find((x) => x.id === d.ruleId)!;
          expect(d.reason === "stale").toBe(NOW - d.eventOccurredAt.getTime() > r.maxEventAgeSeconds * 1000);
        }
        // Per rule, trackable and type, the events that went out (to any channel) are a cooldown apart.
        const sent = new Map<string, number[]>();
        for (const d of pending) {
          const key = `${d.ruleId}|${d.trackableId}|${d.eventType}`;
          const at = d.eventOccurredAt.getTime();
          if (!sent.get(key)?.includes(at)) sent.set(key, [...(sent.get(key) ?? []), at]);
        }
        for (const [key, times] of sent) {
          const cooldown = rs.find((x) => x.id === key.split("|")[0])!.cooldownSeconds * 1000;
          const sorted = times.sort((a, b) => a - b);
          for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(cooldown);
        }
        // Every matching rule leaves a trace for each of its enabled channels, unless another rule already sends there.
        for (const e of evs) {
          for (const r of rs) {
            const matches = r.eventTypes.includes(e.type) && (!r.trackableIds || r.trackableIds.includes(e.trackableId)) && (!r.geofenceIds || (e.geofenceId !== null && r.geofenceIds.includes(e.geofenceId)));
            for (const c of r.channelIds.filter((x) => enabled.includes(x))) {
              const own = out.some((d) => d.eventId === e.id && d.ruleId === r.id && d.channelId === c);
              const other = pending.some((d) => d.eventId === e.id && d.channelId === c);
              expect(own || (matches && other) || !matches).toBe(true);
              if (!matches) expect(own).toBe(false);
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
