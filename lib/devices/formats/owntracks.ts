// POST /ingest/owntracks — OwnTracks (iOS, Android) in HTTP mode. The app POSTs each message it would publish over MQTT
// as JSON (https://owntracks.org/booklet/tech/http/), with the user name and password of its settings as HTTP Basic
// credentials (only when both are set). Only `_type: "location"` carries a position
// (https://owntracks.org/booklet/tech/json/); every other message, and the empty body the app sends when a friend is
// deleted, is acknowledged and stored nowhere. Any 2xx counts as delivered, so the reply comes only once stored.
// The body is read as JSON whatever its Content-Type, as the OwnTracks Recorder does: the booklet tests HTTP mode
// with `curl --data`, which labels it a form. A fix dated at or before 1970 (the Android app's own parser refuses
// "tst": 0) or beyond any date is acknowledged and dropped: iOS deletes a message on a 4xx, Android resends it for
// ever, blocking every later one behind it.
import { parseJsonObject, readBodyText } from "@/lib/http/body";
import { json } from "@/lib/http/handler";
import type { LocationInput } from "@/lib/locations/schemas";
import {
  basicPassword,
  KMH_TO_MS,
  queryParam,
  requirePoint,
  scaled,
  unixTimeField,
  unlessNegative,
  type DeviceFormat,
  type FieldNames,
} from "./common";

/** OwnTracks' field names for ours: its HTTP payloads and its Recorder's .rec lines use the same. */
export const OWNTRACKS_FIELDS: FieldNames = {
  latitude: "lat",
  longitude: "lon",
  accuracy: "acc",
  altitude: "alt",
  speed: "vel",
  heading: "cog",
  battery: "batt",
  timestamp: "tst",
};

export const owntracks: DeviceFormat<Record<string, unknown> | null> = {
  app: "owntracks",
  challenge: 'Basic realm="Fenceline", charset="UTF-8"',

  async read(req) {
    const text = await readBodyText(req);
    return { token: basicPassword(req) ?? queryParam(req, "token"), payload: text.trim() === "" ? null : parseJsonObject(text) };
  },

  points(message): LocationInput[] {
    if (message?._type !== "location") return [];
    // Units (booklet, _type=location): tst Unix seconds of the fix, acc and alt metres, vel km/h, cog degrees, batt percent.
    const point = requirePoint(
      {
        latitude: message.lat,
        longitude: message.lon,
        accuracy: message.acc,
        altitude: message.alt,
        // iOS takes these from CoreLocation and the battery API, which report -1 when they do not know.
        speed: unlessNegative(scaled(message.vel, KMH_TO_MS)),
        heading: unlessNegative(message.cog),
        battery: unlessNegative(message.batt),
        timestamp: unixTimeField(message.tst),
      },
      OWNTRACKS_FIELDS,
      { timeRequired: true },
    );
    return point ? [point] : [];
  },

  ok: () => json([], 200),
};
