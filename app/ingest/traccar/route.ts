// GET|POST /ingest/traccar — Traccar Client, OsmAnd and GPSLogger post one point (OsmAnd protocol; device token as `id`)
import { handleDeviceIngest } from "@/lib/devices/ingest";
import { traccar } from "@/lib/devices/formats/traccar";
import { route } from "@/lib/http/handler";

const ingest = (req: Request) => handleDeviceIngest(traccar, req);

export const { GET, POST, PUT, PATCH, DELETE } = route({ GET: ingest, POST: ingest });
