import type { NotificationTemplate, StoredMessage } from "@/lib/db/schema";
import { localTime } from "./schedule";

/** The placeholders a rule's template may use, each filled from the event (empty when the event has no such value). */
export const PLACEHOLDERS = [
  "trackable.name",
  "geofence.name",
  "event.type",
  "time",
  "location.latitude",
  "location.longitude",
  "link",
  "trip.distance",
  "speed.value",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholders of a template text that are not known ("{{driver}}" → ["driver"]), in order of appearance. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** What a message is made of: the event and the names it refers to, as they were when it was matched. */
export interface MessageInput {
  type: string;
  trackableId: string;
  trackableName: string;
  geofenceName: string | null;
  occurredAt: Date;
  location: { latitude: number; longitude: number } | null;
  durationSeconds: number | null;
  payload: Record<string, unknown> | null;
}

const pick = (payload: Record<string, unknown> | null, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), payload);

const minutes = (seconds: number | null) => {
  const m = Math.round((seconds ?? 0) / 60);
  return m >= 120 ? `${Math.round(m / 60)} h` : `${m} min`;
};

/** The default title: one plain sentence, names first (what a phone's lock screen shows). */
export function defaultTitle(m: MessageInput): string {
  const t = m.trackableName;
  const g = m.geofenceName ?? "a geofence";
  switch (m.type) {
    case "geofence.entry":
      return `${t} entered ${g}`;
    case "geofence.exit":
      return `${t} left ${g}`;
    case "geofence.dwell":
      return `${t} has been in ${g} for ${minutes(m.durationSeconds ?? (pick(m.payload, "dwell", "seconds") as number | null))}`;
    case "battery.low": {
      const level = pick(m.payload, "battery", "level");
      return typeof level === "number" ? `${t}'s battery is low (${Math.round(level)}%)` : `${t}'s battery is low`;
    }
    case "device.status_changed":
      return pick(m.payload, "status", "current") === "offline" ? `${t} went offline` : `${t} is back online`;
    case "trip.started":
      return `${t} started a trip`;
    case "trip.ended": {
      const meters = pick(m.payload, "trip", "distance");
      return typeof meters === "number" ? `${t} ended a trip of ${(meters / 1000).toFixed(1)} km` : `${t} ended a trip`;
    }
    case "speed.exceeded": {
      const value = pick(m.payload, "speed", "value");
      const limit = pick(m.payload, "speed", "limit");
      const kmh = (v: unknown) => `${Math.round((v as number) * 3.6)} km/h`;
      return typeof value === "number" && typeof limit === "number"
        ? `${t} is over the speed limit: ${kmh(value)} where ${kmh(limit)} is allowed`
        : `${t} is over the speed limit`;
    }
    default:
      return `${t}: ${m.type}`;
  }
}

/** The values of the placeholders for an event, in the rule's zone. */
export function placeholderValues(m: MessageInput, timeZone: string, appUrl: string): Record<Placeholder, string> {
  const fixed = (n: unknown) => (typeof n === "number" ? n.toFixed(5) : "");
  const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  return {
    "trackable.name": m.trackableName,
    "geofence.name": m.geofenceName ?? "",
    "event.type": m.type,
    time: `${localTime(m.occurredAt, timeZone).hhmm} (${timeZone})`,
    "location.latitude": fixed(m.location?.latitude),
    "location.longitude": fixed(m.location?.longitude),
    link: `${appUrl.replace(/\/+$/, "")}/trackables/${m.trackableId}`,
    "trip.distance": text(pick(m.payload, "trip", "distance") ?? pick(m.payload, "trip", "distanceMeters")),
    "speed.value": text(pick(m.payload, "speed", "value") ?? pick(m.payload, "speed")),
  };
}

export const renderTemplate = (text: string, values: Record<Placeholder, string>) =>
  text.replace(PLACEHOLDER, (whole, name: string) => (name in values ? values[name as Placeholder] : whole));

/**
 * The message of an event for a rule: the template's title and body where it has them, else a plain sentence (title
 * "Van 12 entered Depot") over "at 14:03 (Europe/Berlin) · 52.52000, 13.40500 · <link>".
 */
export function buildMessage(m: MessageInput, rule: { timeZone: string; template: NotificationTemplate | null }, appUrl: string): StoredMessage {
  const values = placeholderValues(m, rule.timeZone, appUrl);
  const where = m.location ? ` · ${values["location.latitude"]}, ${values["location.longitude"]}` : "";
  const body = `at ${values.time}${where} · ${values.link}`;
  return {
    title: rule.template?.title ? renderTemplate(rule.template.title, values) : defaultTitle(m),
    body: rule.template?.body ? renderTemplate(rule.template.body, values) : body,
    link: values.link,
    tags: [m.type],
  };
}
