export * from "./accounts";
export * from "./api-keys";
export * from "./trackables";
export * from "./locations";
export * from "./geofences";
export * from "./geofence-trackables";
