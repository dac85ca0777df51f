import type { Metadata } from "next";
import { PrivacyZoneMap } from "@/components/privacy-zones";
import { ZoneForm } from "@/components/privacy-zones/zone-form";
import { ZoneList } from "@/components/privacy-zones/zone-list";
import { Card, EmptyState, PageHeader } from "@/components/ui";
import { requireSession } from "@/lib/auth/session";
import { can } from "@/lib/teams/roles";
import { mapConfig } from "@/lib/config/map";
import { listPrivacyZones } from "@/lib/privacy-zones/privacy-zones";
import { listTrackables } from "@/lib/trackables/trackables";

export const metadata: Metadata = { title: "Privacy zones" };

export default async function PrivacyZonesPage() {
  const { ctx, role } = await requireSession({ permission: "workspace.read" });
  const canWrite = can(role, "privacyZones.write");
  const [zones, trackables] = await Promise.all([listPrivacyZones({ ctx, query: { limit: 100 } }), listTrackables({ ctx, query: { limit: 100 } })]);
  const named = trackables.data.map((t) => ({ id: t.id, name: t.name }));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Privacy zones"
        description="Positions inside a zone are dropped (not stored) or blurred (stored at its centre) before anything else sees them."
      />
      <Card className="p-5">
        <PrivacyZoneMap config={mapConfig()} zones={zones.data} />
      </Card>
      <Card className="p-5" aria-labelledby="zones-heading">
        <h2 id="zones-heading" className="text-base font-semibold text-slate-900">
          Zones
        </h2>
        {zones.data.length === 0 ? <EmptyState title="No privacy zones yet">{canWrite ? "Add one below." : "None are set."}</EmptyState> : <ZoneList zones={zones.data} trackables={named} canWrite={canWrite} />}
      </Card>
      {canWrite ? (
        <Card className="p-5" aria-labelledby="new-zone-heading">
          <h2 id="new-zone-heading" className="mb-4 text-base font-semibold text-slate-900">
            New privacy zone
          </h2>
          <ZoneForm trackables={named} />
        </Card>
      ) : null}
    </div>
  );
}
