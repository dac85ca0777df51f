"use client";
import { useSearchParams } from "next/navigation";

/**
 * Its children while the geofences page shows its list, and nothing while a geofence is open (?geofence=<id>) or
 * being drawn (?new=1): the open geofence's own panel then shows who is inside it, so the page's "Who is inside now"
 * for every geofence would repeat it below. The editor keeps the URL in step with what is open.
 */
export function WhileNoGeofenceOpen({ children }: { children: React.ReactNode }) {
  const params = useSearchParams();
  return params.get("geofence") || params.get("new") === "1" ? null : <>{children}</>;
}
