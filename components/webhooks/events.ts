// The event kinds an account endpoint can subscribe to, with what each one means (shown beside the checkboxes).
export const EVENT_KINDS = [
  { value: "geofence.entry", description: "A trackable entered a geofence" },
  { value: "geofence.exit", description: "A trackable left a geofence" },
  { value: "geofence.dwell", description: "A trackable stayed inside a geofence for its dwell time (once per visit)" },
  { value: "location.updated", description: "Every newest location of a trackable" },
  { value: "battery.low", description: "Battery fell below the threshold" },
  { value: "device.status_changed", description: "A trackable went online or offline" },
] as const;
