// POST /ingest/owntracks — OwnTracks in HTTP mode posts its messages; a `_type: "location"` stores one point (device token)
import { handleDeviceIngest } from "@/lib/devices/ingest";
import { owntracks } from "@/lib/devices/formats/owntracks";
import { route } from "@/lib/http/handler";

export const { GET, POST, PUT, PATCH, DELETE } = route({ POST: (req) => handleDeviceIngest(owntracks, req) });
