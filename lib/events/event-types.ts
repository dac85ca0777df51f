import { EVENTS, eventTypesOf, type EventRegistry } from "./registry";
import type { EventTypeList } from "./schemas";

/** GET /event-types: every event type of the service, in the registry's order (the same on every plan). */
export function listEventTypes(registry: EventRegistry = EVENTS): EventTypeList {
  return { data: eventTypesOf(registry) };
}
