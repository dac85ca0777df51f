import { GeofenceEditor } from "@/components/geofences/geofence-editor";
import { WhileNoGeofenceOpen } from "@/components/geofences/while-no-geofence-open";
import { OccupancyPanel } from "@/components/occupancy/occupancy-panel";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/teams/roles";
import { mapConfig } from "@/lib/config/map";
import { isEnterprise } from "@/lib/dashboard/plan";
import { listAllGeofences } from "@/lib/geofences/geofences";
import { listAccountOccupancy } from "@/lib/geofences/occupancy";
import { listTrackableSummaries } from "@/lib/trackables/summaries";

// The editor lives in the layout, not the page: the selection is kept in the URL (?geofence=<id>, ?new=1) and a page
// is re-mounted whenever its search params change, which would reset the map and the form on every save. A layout is
// not, and router.refresh() still re-renders it with fresh data.
export default async function GeofencesLayout({ children }: { children: React.ReactNode }) {
  const { ctx, role } = await requireSession({ permission: "workspace.read" });
  const geofences = await listAllGeofences({ ctx });
  const trackables = await listTrackableSummaries({ ctx });
  const occupancy = await listAccountOccupancy({ ctx });
  return (
    <>
      <GeofenceEditor config={mapConfig()} geofences={geofences} trackables={trackables} enterprise={isEnterprise(ctx)} canWrite={can(role, "geofences.write")} />
      <WhileNoGeofenceOpen>
        <OccupancyPanel geofences={geofences} occupants={occupancy.data} truncated={occupancy.truncated} />
      </WhileNoGeofenceOpen>
      {children}
    </>
  );
}
