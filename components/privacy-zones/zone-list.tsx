"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge, Button } from "@/components/ui";
import { deletePrivacyZoneAction } from "@/lib/privacy-zones/actions";
import type { PrivacyZone } from "@/lib/privacy-zones/schemas";
import { ZoneForm } from "./zone-form";

/** The account's privacy zones, each with an inline editor and a delete button. */
export function ZoneList({ zones, trackables, canWrite }: { zones: PrivacyZone[]; trackables: { id: string; name: string }[]; canWrite: boolean }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const names = new Map(trackables.map((t) => [t.id, t.name]));
  return (
    <ul className="divide-y divide-slate-200" aria-label="Privacy zones">
      {zones.map((z) => (
        <li key={z.id} className="py-3" data-testid="privacy-zone">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="min-w-0">
              <p className="font-medium break-words text-slate-900">{z.name}</p>
              <p className="text-sm text-slate-600">
                {z.latitude.toFixed(5)}, {z.longitude.toFixed(5)} · {z.radius} m ·{" "}
                {z.trackableIds ? z.trackableIds.map((id) => names.get(id) ?? id).join(", ") : "all trackables"}
              </p>
            </div>
            <div className="flex items-center gap-2">
              <Badge color={z.mode === "drop" ? "red" : "yellow"}>{z.mode}</Badge>
              {canWrite ? (
                <>
                  <Button variant="secondary" size="sm" aria-expanded={editing === z.id} onClick={() => setEditing(editing === z.id ? null : z.id)}>
                    {editing === z.id ? "Close" : `Edit ${z.name}`}
                  </Button>
                  <Button
                    variant="danger"
                    size="sm"
                    onClick={async () => {
                      const result = await deletePrivacyZoneAction({ id: z.id });
                      if (result.ok) router.refresh();
                    }}
                  >
                    {`Delete ${z.name}`}
                  </Button>
                </>
              ) : null}
            </div>
          </div>
          {editing === z.id ? (
            <div className="mt-3">
              <ZoneForm zone={z} trackables={trackables} onDone={() => setEditing(null)} />
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
