// The payload builders live with the event registry, which declares each event's payload once.
export * from "@/lib/events/payloads";
