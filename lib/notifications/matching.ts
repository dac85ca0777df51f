import type { NotificationRuleRow, StoredMessage, SuppressionReason } from "@/lib/db/schema";
import { buildMessage, type MessageInput } from "./messages";
import { inSchedule } from "./schedule";

export interface MatchableEvent extends MessageInput {
  id: string;
  geofenceId: string | null;
}

export interface MatchedDelivery {
  ruleId: string;
  channelId: string;
  eventId: string;
  eventType: string;
  trackableId: string;
  eventOccurredAt: Date;
  status: "pending" | "suppressed";
  reason: SuppressionReason | null;
  message: StoredMessage;
}

type Rule = Pick<
  NotificationRuleRow,
  "id" | "eventTypes" | "trackableIds" | "geofenceIds" | "channelIds" | "schedule" | "cooldownSeconds" | "maxEventAgeSeconds" | "template"
>;

/** Whether a rule's types, trackables and geofences match an event (a rule with geofences only matches their events). */
export const ruleMatches = (rule: Rule, e: { type: string; trackableId: string; geofenceId: string | null }) =>
  rule.eventTypes.includes(e.type) &&
  (rule.trackableIds === null || rule.trackableIds.includes(e.trackableId)) &&
  (rule.geofenceIds === null || (e.geofenceId !== null && rule.geofenceIds.includes(e.geofenceId)));

/**
 * The deliveries of events (in the order they occurred) for the rules, one per matching rule and enabled channel:
 * `stale` when the event is older than the rule's maxEventAgeSeconds now, `schedule` outside its schedule (at the
 * time it occurred), `cooldown` within cooldownSeconds of the last notified event of the same rule, trackable and
 * type; pending otherwise. An event goes to a channel once, by its first rule that sends it. No I/O.
 */
export function matchDeliveries(input: {
  events: readonly MatchableEvent[];
  rules: readonly Rule[];
  /** The account's enabled channels. */
  channels: ReadonlySet<string>;
  lastNotified: ReadonlyArray<{ ruleId: string; trackableId: string; eventType: string; at: Date }>;
  now: Date;
  appUrl: string;
}): MatchedDelivery[] {
  const last = new Map(input.lastNotified.map((l) => [`${l.ruleId}|${l.trackableId}|${l.eventType}`, l.at.getTime()]));
  const out: MatchedDelivery[] = [];
  const sentTo = new Set<string>();
  const ordered = [...input.events].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  for (const e of ordered) {
    for (const rule of input.rules) {
      if (!ruleMatches(rule, e)) continue;
      const key = `${rule.id}|${e.trackableId}|${e.type}`;
      const at = e.occurredAt.getTime();
      const previous = last.get(key);
      let reason: SuppressionReason | null = null;
      if (input.now.getTime() - at > rule.maxEventAgeSeconds * 1000) reason = "stale";
      else if (!inSchedule(rule.schedule, e.occurredAt)) reason = "schedule";
      else if (rule.cooldownSeconds > 0 && previous !== undefined && Math.abs(at - previous) < rule.cooldownSeconds * 1000) reason = "cooldown";
      const message = buildMessage(e, { timeZone: rule.schedule?.timeZone ?? "UTC", template: rule.template }, input.appUrl);
      let sends = false;
      for (const channelId of rule.channelIds) {
        if (!input.channels.has(channelId)) continue;
        if (reason === null && sentTo.has(`${e.id}|${channelId}`)) continue;
        if (reason === null) {
          sentTo.add(`${e.id}|${channelId}`);
          sends = true;
        }
        out.push({
          ruleId: rule.id,
          channelId,
          eventId: e.id,
          eventType: e.type,
          trackableId: e.trackableId,
          eventOccurredAt: e.occurredAt,
          status: reason ? "suppressed" : "pending",
          reason,
          message,
        });
      }
      if (sends && (previous === undefined || at > previous)) last.set(key, at);
    }
  }
  return out;
}
