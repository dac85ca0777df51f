// The head of a trackable's page: its name, type, status, last contact and battery, and what can be done to it.
import { LiveRefresh } from "@/components/live/live-refresh";
import { Badge, Time } from "@/components/ui";
import { SOURCE_LABELS } from "@/lib/devices/setup";
import type { Location } from "@/lib/locations/schemas";
import type { Trackable } from "@/lib/trackables/schemas";
import type { TrackableStatus } from "@/lib/trackables/status";
import { DeleteTrackableButton } from "./delete-trackable-button";
import { BatteryIndicator, StatusIndicator } from "./indicators";
import { TrackableFormDialog } from "./trackable-form-dialog";
import { TrackingToggle } from "./tracking-toggle";

export function TrackableHeader({
  trackable,
  status,
  latest,
  threshold,
  canWrite,
}: {
  trackable: Pick<Trackable, "id" | "name" | "type" | "tracking">;
  status: TrackableStatus;
  latest: Location | null;
  threshold: number;
  /** The user's role may change the trackable (pause, edit, delete). */
  canWrite: boolean;
}) {
  return (
    <header className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900">{trackable.name}</h1>
        <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2">
          <Badge data-testid="trackable-type">{trackable.type}</Badge>
          <StatusIndicator status={status.status} />
          {trackable.tracking === "paused" ? (
            <Badge color="yellow" data-testid="tracking-paused">
              Tracking paused
            </Badge>
          ) : null}
          <span className="text-sm text-slate-600">
            {status.lastSeenAt ? (
              <>
                Last seen <Time value={status.lastSeenAt} relative />
              </>
            ) : (
              "Never seen"
            )}
          </span>
          {latest?.battery != null ? <BatteryIndicator level={latest.battery} threshold={threshold} /> : null}
          {latest ? (
            <span className="text-sm text-slate-600" data-testid="last-point-source">
              Last point from {SOURCE_LABELS[latest.source]}, <Time value={latest.timestamp} relative />
            </span>
          ) : null}
        </div>
      </div>
      <div className="flex shrink-0 gap-2">
        <LiveRefresh scope="trackable" trackableId={trackable.id} />
        {canWrite ? (
          <>
            <TrackingToggle id={trackable.id} tracking={trackable.tracking} />
            <TrackableFormDialog mode="edit" trackable={{ id: trackable.id, name: trackable.name, type: trackable.type }} />
            <DeleteTrackableButton id={trackable.id} name={trackable.name} redirectTo="/trackables" size="md" />
          </>
        ) : null}
      </div>
    </header>
  );
}
