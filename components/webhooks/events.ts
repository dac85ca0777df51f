import { EVENTS } from "@/lib/events/registry";

// The event kinds an account endpoint can subscribe to, with what each one means (shown beside the checkboxes).
export const EVENT_KINDS = EVENTS.deliverable.map((type) => ({ value: type, description: EVENTS.get(type)!.description }));
