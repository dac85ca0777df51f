// The privacy zone filter on the ingest hot path: nanoseconds a point for 0, 1, 10 and 100 zones (none holding the
// points, the common case), applied to 100-point batches from memory as ingestLocations applies them.
// Usage: npx tsx bench/privacy-zones.ts
import { applyPrivacyZones, type PrivacyZone } from "@/lib/privacy-zones/zone-cache";
const pts = Array.from({ length: 100 }, (_, i) => ({ latitude: 52.5 + i / 1e4, longitude: 13.4, accuracy: 5 as number | null }));
const zones = (n: number): PrivacyZone[] => Array.from({ length: n }, (_, i) => ({ id: `${i}`, latitude: 40 + i / 10, longitude: 2, radius: 200, mode: "drop", trackableIds: null }));
for (const n of [0, 1, 10, 100]) {
  const z = zones(n);
  for (let i = 0; i < 2000; i++) applyPrivacyZones(z, "t", pts);
  const runs = 20000;
  const s = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) applyPrivacyZones(z, "t", pts);
  const ns = Number(process.hrtime.bigint() - s) / runs / pts.length;
  console.log(`${n} zones: ${ns.toFixed(1)} ns per point`);
}
