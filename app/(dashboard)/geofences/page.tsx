import type { Metadata } from "next";

export const metadata: Metadata = { title: "Geofences" };

// /geofences?geofence=<id> opens that geofence; /geofences?new=1 starts drawing a new one. The editor itself is
// rendered by ./layout.tsx (see there why), which reads the selection from the URL.
export default function GeofencesPage() {
  return null;
}
