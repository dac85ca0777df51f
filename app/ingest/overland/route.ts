// POST /ingest/overland — Overland (iOS) posts a batch of GeoJSON points (device token as its Bearer access token)
import { handleDeviceIngest } from "@/lib/devices/ingest";
import { overland } from "@/lib/devices/formats/overland";
import { route } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE } = route({ POST: (req) => handleDeviceIngest(overland, req) });
