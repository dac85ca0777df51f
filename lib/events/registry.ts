import type { Plan } from "@/lib/context";
import type { EventDeclaration, SampleParts } from "./declaration";
import { batteryLow } from "./types/battery";
import { deviceStatusChanged } from "./types/device-status";
import { geofenceDwell, geofenceEntry, geofenceExit } from "./types/geofence";
import { locationUpdated } from "./types/location";
import { speedExceeded } from "./types/speed";
import { tripEnded, tripStarted } from "./types/trip";

// Every event type of the service, each declared once in lib/events/types/. Adding one is its declaration, its
// producer and one line in this list: subscriptions, the OpenAPI `webhooks` section, test deliveries,
// GET /event-types and the dashboard's filters and labels all read the registry.

export interface EventRegistry<T extends string = string> {
  /** In declaration order (the order of lists, filters and the OpenAPI `webhooks` section). */
  declarations: ReadonlyArray<EventDeclaration<T>>;
  types: readonly [T, ...T[]];
  /** The types kept in the events log. */
  recorded: readonly [T, ...T[]];
  /** The types some plan's webhooks receive: what an endpoint may subscribe to. */
  deliverable: readonly [T, ...T[]];
  get(type: string): EventDeclaration<T> | undefined;
  isRecorded(type: string): boolean;
  /** Whether webhooks of an account on this plan receive the type. */
  deliveredOn(type: string, plan: Plan): boolean;
}

const nonEmpty = <T>(list: T[], what: string): [T, ...T[]] => {
  if (list.length === 0) throw new Error(`event registry: no ${what} type`);
  return list as [T, ...T[]];
};

/** A registry over these declarations (names must be unique). */
export function buildRegistry<const D extends ReadonlyArray<EventDeclaration>>(declarations: D): EventRegistry<D[number]["type"]> {
  type T = D[number]["type"];
  const byType = new Map<string, EventDeclaration<T>>();
  for (const d of declarations) {
    if (byType.has(d.type)) throw new Error(`event registry: ${d.type} is declared twice`);
    byType.set(d.type, d as EventDeclaration<T>);
  }
  const all = [...byType.values()];
  return {
    declarations: all,
    types: nonEmpty(all.map((d) => d.type), "event"),
    recorded: nonEmpty(all.filter((d) => d.recorded).map((d) => d.type), "recorded"),
    deliverable: nonEmpty(all.filter((d) => d.deliveredOn.length > 0).map((d) => d.type), "deliverable"),
    get: (type) => byType.get(type),
    isRecorded: (type) => byType.get(type)?.recorded ?? false,
    deliveredOn: (type, plan) => byType.get(type)?.deliveredOn.includes(plan) ?? false,
  };
}

const DECLARATIONS = [geofenceEntry, geofenceExit, geofenceDwell, locationUpdated, batteryLow, deviceStatusChanged, tripStarted, tripEnded, speedExceeded] as const;
export const EVENTS: EventRegistry<EventType> = buildRegistry(DECLARATIONS);

/** Every event type's name. */
export type EventType = (typeof DECLARATIONS)[number]["type"];
/** The names of the types kept in the events log. */
export type RecordedEventType = Extract<(typeof DECLARATIONS)[number], { recorded: true }>["type"];
/** The recorded types (EVENTS.recorded), typed as such. */
export const RECORDED_EVENT_TYPES = EVENTS.recorded as readonly [RecordedEventType, ...RecordedEventType[]];
/** The payload of a type, as its declaration's schema gives it. */
export type EventPayload<T extends EventType> = ReturnType<Extract<(typeof DECLARATIONS)[number], { type: T }>["sample"]>;

/** GET /event-types: each type with its label, its description and whether the events log keeps it. */
export function eventTypesOf(registry: EventRegistry = EVENTS) {
  return registry.declarations.map((d) => ({ type: d.type, label: d.label, description: d.description, recorded: d.recorded }));
}

/** The label of a type ("Entered a geofence"); the type's name for one the registry does not know. */
export const eventLabel = (type: string, registry: EventRegistry = EVENTS): string => registry.get(type)?.label ?? type;

/** The [value, label] options of a filter by event type: the recorded types (what the events log can hold). */
export const recordedTypeOptions = (registry: EventRegistry = EVENTS): Array<[string, string]> =>
  registry.recorded.map((t) => [t, eventLabel(t, registry)]);

/** A sample payload of the type, as a subscribed endpoint would receive it (checked against its schema). */
export function samplePayload(type: string, parts: SampleParts, registry: EventRegistry = EVENTS): Record<string, unknown> {
  const d = registry.get(type);
  if (!d) throw new Error(`event registry: unknown event type ${type}`);
  const payload = d.sample(parts) as Record<string, unknown>;
  d.payload.parse(payload);
  return payload;
}
