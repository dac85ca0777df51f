"use client";
import { Badge, Button, Card, EmptyState } from "@/components/ui";
import type { Geofence } from "@/lib/geofences/schemas";
import { assignedLabel, sizeLabel } from "./geofence-form";

/** The geofences beside the map; without `onNew` (a role that cannot draw one) the empty list offers no button. */
export function GeofenceList({ geofences, onSelect, onNew }: { geofences: Geofence[]; onSelect: (id: string) => void; onNew?: () => void }) {
  if (geofences.length === 0) {
    return (
      <EmptyState title="No geofences yet" action={onNew ? <Button onClick={onNew}>Draw your first geofence</Button> : undefined}>
        Press on the map for the centre and drag out the radius, or type the coordinates.
      </EmptyState>
    );
  }
  return (
    <Card className="overflow-hidden">
      <h2 className="border-b border-slate-100 px-4 py-3 text-sm font-semibold text-slate-900">
        {geofences.length} geofence{geofences.length === 1 ? "" : "s"}
      </h2>
      <ul className="max-h-[calc(100vh-15rem)] divide-y divide-slate-100 overflow-y-auto" aria-label="Geofences">
        {geofences.map((g) => (
          <li key={g.id}>
            <button
              type="button"
              onClick={() => onSelect(g.id)}
              className="block w-full px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-indigo-50 focus-visible:outline-none"
              data-testid="geofence-item"
            >
              <span className="block truncate text-sm font-medium text-slate-900">{g.name}</span>
              <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span>{sizeLabel(g)}</span>
                <span aria-hidden>·</span>
                <span>{g.occupantCount} inside</span>
                <span aria-hidden>·</span>
                <span>{assignedLabel(g)}</span>
                <Badge color={g.notificationType === "webhook" ? "blue" : "gray"}>
                  {g.notificationType === "webhook" ? "Webhook" : "No notifications"}
                </Badge>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
