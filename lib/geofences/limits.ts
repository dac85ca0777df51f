// The geofence size limits, in a module of their own (no configuration, no server code) so the browser's editor
// enforces the same numbers as the API's schemas.
export const MIN_RADIUS_M = 1;
export const MAX_RADIUS_M = 100_000;
