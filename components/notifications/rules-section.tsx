"use client";
// The account's notification rules: what each sends where and when; add, edit, delete.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge, Button, Card } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { deleteRuleAction } from "@/lib/notifications/actions";
import type { NotificationRule } from "@/lib/notifications/rule-schemas";
import { RuleForm, type RuleOptions } from "./rule-form";

const label = (options: Array<readonly [string, string]>, id: string) => options.find(([v]) => v === id)?.[1] ?? "(deleted)";

export function RulesSection({ rules, options }: { rules: NotificationRule[]; options: RuleOptions }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const done = () => {
    setEditing(null);
    router.refresh();
  };
  return (
    <section aria-labelledby="rules-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="rules-heading" className="text-base font-semibold text-slate-900">
          Rules
        </h2>
        {editing === "new" || options.channels.length === 0 ? null : (
          <Button size="sm" onClick={() => setEditing("new")}>
            Add rule
          </Button>
        )}
      </div>
      {options.channels.length === 0 ? <p className="text-sm text-slate-600">Add a channel first: a rule sends to channels.</p> : null}
      {editing === "new" ? (
        <Card className="p-4">
          <RuleForm rule={null} options={options} onDone={done} />
        </Card>
      ) : null}
      <ul className="space-y-2">
        {rules.map((r) => (
          <li key={r.id} data-testid="rule-row">
            <Card className="p-4">
              {editing === r.id ? (
                <RuleForm rule={r} options={options} onDone={done} />
              ) : (
                <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0 space-y-1 text-sm">
                    <p className="font-medium text-slate-900">
                      {r.name} {r.enabled ? null : <Badge color="yellow">Disabled</Badge>}
                    </p>
                    <p className="flex flex-wrap gap-1">
                      {r.eventTypes.map((t) => (
                        <Badge key={t}>{label(options.eventTypes, t)}</Badge>
                      ))}
                    </p>
                    <p className="text-slate-600">To {r.channelIds.map((c) => label(options.channels, c)).join(", ") || "no channel"}</p>
                    <p className="text-slate-600">
                      {r.trackableIds ? `Only ${r.trackableIds.map((t) => label(options.trackables, t)).join(", ")}` : "Every trackable"}
                      {r.geofenceIds ? ` · at ${r.geofenceIds.map((g) => label(options.geofences, g)).join(", ")}` : ""}
                    </p>
                    <p className="text-slate-600">
                      {r.schedule ? `${r.schedule.days.join(", ") || "no days"} ${r.schedule.from}–${r.schedule.to} (${r.schedule.timeZone})` : "Always"}
                      {r.cooldownSeconds ? ` · cooldown ${r.cooldownSeconds} s` : ""}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" variant="secondary" onClick={() => setEditing(r.id)} aria-label={`Edit ${r.name}`}>
                      Edit
                    </Button>
                    <ConfirmButton
                      label="Delete"
                      title={`Delete the rule "${r.name}"?`}
                      confirmLabel="Delete rule"
                      onConfirm={async () => {
                        await deleteRuleAction(r.id);
                        router.refresh();
                      }}
                    >
                      Nothing more is sent for it; its log entries stay.
                    </ConfirmButton>
                  </div>
                </div>
              )}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
