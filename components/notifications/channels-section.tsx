"use client";
// The account's notification channels: add, edit, delete, and "Send test" with the service's answer.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert, Badge, Button, Card } from "@/components/ui";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { deleteChannelAction, testChannelAction } from "@/lib/notifications/actions";
import type { NotificationChannel } from "@/lib/notifications/schemas";
import { CHANNEL_FIELDS } from "./channel-fields";
import { ChannelForm } from "./channel-form";

export function ChannelsSection({ channels, types }: { channels: NotificationChannel[]; types: string[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const done = () => {
    setEditing(null);
    router.refresh();
  };

  async function test(c: NotificationChannel) {
    setNotice(null);
    const result = await testChannelAction(c.id);
    if (!result.ok) setNotice({ tone: "error", text: result.error });
    else if (result.data.delivered) setNotice({ tone: "success", text: `Test sent to "${c.name}".` });
    else setNotice({ tone: "error", text: `"${c.name}" did not accept the test: ${result.data.error ?? "no answer"}.` });
  }

  return (
    <section aria-labelledby="channels-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="channels-heading" className="text-base font-semibold text-slate-900">
          Channels
        </h2>
        {editing === "new" ? null : (
          <Button size="sm" onClick={() => setEditing("new")}>
            Add channel
          </Button>
        )}
      </div>
      {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {editing === "new" ? (
        <Card className="p-4">
          <ChannelForm channel={null} types={types} onDone={done} />
        </Card>
      ) : null}
      {channels.length === 0 && editing !== "new" ? (
        <p className="text-sm text-slate-600">No channels yet: add an ntfy topic, a Gotify app, a Telegram chat, a Discord or Slack webhook, or e-mail addresses.</p>
      ) : null}
      <ul className="space-y-2">
        {channels.map((c) => (
          <li key={c.id} data-testid="channel-row">
            <Card className="p-4">
              {editing === c.id ? (
                <ChannelForm channel={c} types={types} onDone={done} />
              ) : (
                <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900">{c.name}</p>
                    <p className="mt-1 flex flex-wrap gap-1">
                      <Badge color="blue">{CHANNEL_FIELDS[c.type]?.label ?? c.type}</Badge>
                      {c.enabled ? null : <Badge color="yellow">Disabled</Badge>}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button size="sm" variant="secondary" onClick={() => test(c)}>
                      Send test
                    </Button>
                    <Button size="sm" variant="secondary" onClick={() => setEditing(c.id)} aria-label={`Edit ${c.name}`}>
                      Edit
                    </Button>
                    <ConfirmButton
                      label="Delete"
                      title={`Delete the channel "${c.name}"?`}
                      confirmLabel="Delete channel"
                      onConfirm={async () => {
                        await deleteChannelAction(c.id);
                        router.refresh();
                      }}
                    >
                      Rules stop sending to it; its log entries stay.
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
