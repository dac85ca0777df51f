import { asc, eq } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { geofences, trackables } from "@/lib/db/schema";
import { recordedTypeOptions } from "@/lib/events/registry";
import { ApiError } from "@/lib/http/errors";
import { CHANNEL_TYPES, channelAdapter, channelDeps } from "./channels";
import { listNotificationDeliveries } from "./delivery-log";
import { listChannels } from "./notification-channels";
import { NotificationDeliveryListQuery } from "./rule-schemas";
import { listRules } from "./rules";

const LOG_PAGE = 25;
const PICKER_LIMIT = 500;

/**
 * What the Notifications page shows: channels, rules, the options of the rule form's pickers, and a page of the log
 * filtered by status, rule and channel (filters it cannot read are dropped, said by `problem`).
 */
export async function notificationsPage({ ctx, filters, cursor }: { ctx: Ctx; filters: { status?: string; rule?: string; channel?: string }; cursor?: string }) {
  const db = exec(ctx);
  const parsed = NotificationDeliveryListQuery.safeParse({ status: filters.status, ruleId: filters.rule, channelId: filters.channel, cursor, limit: LOG_PAGE });
  let problem: string | null = parsed.success ? null : "Some filters in the address were not understood and were ignored.";
  const query = parsed.success ? parsed.data : { limit: LOG_PAGE };
  const log = await listNotificationDeliveries({ ctx, query }).catch(async (err) => {
    if (!(err instanceof ApiError) || err.code !== "invalid_request") throw err;
    problem = "That page link is no longer valid: showing the newest entries.";
    return listNotificationDeliveries({ ctx, query: { ...query, cursor: undefined } });
  });
  const [channels, rules, trackableRows, geofenceRows] = [
    await listChannels({ ctx, query: { limit: 100 } }),
    await listRules({ ctx, query: { limit: 100 } }),
    await db.select({ id: trackables.id, name: trackables.name }).from(trackables).where(eq(trackables.accountId, ctx.account.id)).orderBy(asc(trackables.name)).limit(PICKER_LIMIT),
    await db.select({ id: geofences.id, name: geofences.name }).from(geofences).where(eq(geofences.accountId, ctx.account.id)).orderBy(asc(geofences.name)).limit(PICKER_LIMIT),
  ];
  const deps = channelDeps();
  return {
    channels: channels.data,
    rules: rules.data,
    // The types this server can send (no e-mail without SMTP_URL).
    channelTypes: CHANNEL_TYPES.filter((t) => !channelAdapter(t).unavailable?.(deps)),
    options: {
      eventTypes: recordedTypeOptions(),
      trackables: trackableRows.map((t) => [t.id, t.name] as const),
      geofences: geofenceRows.map((g) => [g.id, g.name] as const),
      channels: channels.data.map((c) => [c.id, c.name] as const),
    },
    ruleOptions: rules.data.map((r) => [r.id, r.name] as const),
    log,
    problem: problem as string | null,
  };
}
