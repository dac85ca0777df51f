import type { Metadata } from "next";
import { GeofenceEditor } from "@/components/geofences/geofence-editor";
import { requireSession } from "@/lib/auth/session";
import { mapConfig } from "@/lib/config/map";
import { isEnterprise } from "@/lib/dashboard/plan";
import { listAllGeofences } from "@/lib/geofences/geofences";
import { listTrackableSummaries } from "@/lib/trackables/summaries";

export const metadata: Metadata = { title: "Geofences" };

// /geofences?geofence=<id> opens that geofence; /geofences?new=1 starts drawing a new one.
export default async function GeofencesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { ctx } = await requireSession();
  const params = await searchParams;
  const [geofences, trackables] = [await listAllGeofences({ ctx }), await listTrackableSummaries({ ctx })];
  const selected = typeof params.geofence === "string" ? params.geofence : null;
  return (
    <GeofenceEditor
      config={mapConfig()}
      geofences={geofences}
      trackables={trackables}
      enterprise={isEnterprise(ctx)}
      initialSelectedId={selected && geofences.some((g) => g.id === selected) ? selected : null}
      initialNew={params.new === "1"}
    />
  );
}
