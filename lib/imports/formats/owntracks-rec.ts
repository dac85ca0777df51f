import { KMH_TO_MS, scaled, unixTimeField, unlessNegative } from "@/lib/devices/formats/common";
import { OWNTRACKS_FIELDS } from "@/lib/devices/formats/owntracks";
import { lines, toRecord, type ImportFormat, type ParsedRecord } from "./types";

/**
 * The OwnTracks Recorder's monthly files (store/rec/<user>/<device>/YYYY-MM.rec): a line per message it received,
 * `<ISO time>\t<flag padded to 18>\t<the message's JSON>`. Only `_type: "location"` lines hold a position (lwt,
 * transition, waypoint … lines are passed over); units as the app sends them (vel km/h, -1 for what iOS does not know).
 */
export const owntracksRec: ImportFormat = {
  name: "owntracks",
  label: "OwnTracks Recorder (.rec)",
  mediaTypes: [],
  extensions: [".rec"],
  async *parse(input) {
    for await (const { line, text } of lines(input)) {
      if (text.trim() === "") continue;
      const record = recLine(line, text);
      if (record) yield record;
    }
  },
};

function recLine(line: number, text: string): ParsedRecord | null {
  const tab = text.indexOf("\t");
  const second = tab < 0 ? -1 : text.indexOf("\t", tab + 1);
  if (second < 0) return { error: { line, message: "not a Recorder line: expected <time>\\t<flag>\\t<JSON>" } };
  let message: unknown;
  try {
    message = JSON.parse(text.slice(second + 1));
  } catch {
    return { error: { line, message: "the message is not valid JSON" } };
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return { error: { line, message: "the message is not a JSON object" } };
  }
  const m = message as Record<string, unknown>;
  if (m._type !== "location") return null;
  return toRecord(
    { line },
    {
      latitude: m.lat,
      longitude: m.lon,
      accuracy: m.acc,
      altitude: m.alt,
      speed: unlessNegative(scaled(m.vel, KMH_TO_MS)),
      heading: unlessNegative(m.cog),
      battery: unlessNegative(m.batt),
      timestamp: unixTimeField(typeof m.tst === "string" && /^\d+$/.test(m.tst) ? Number(m.tst) : m.tst),
    },
    OWNTRACKS_FIELDS,
  );
}

