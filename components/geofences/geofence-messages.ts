// Readable sentences for the geofence editor's errors. The server names fields and positions the way the API does
// ("geometry.coordinates[0]: the outer ring intersects itself at [13.4, 52.5]: edge coordinates[0][1]→[2] crosses
// edge coordinates[0][3]→[4]"); people drawing on a map count corners from 1 and read latitude first.

/** "Exit buffer must be between 0 and 10000 metres." from a field's label and the schema's message. */
export function fieldSentence(label: string, message: string): string {
  const m = message.trim();
  // The dashboard's actions already send sentences that name their field (lib/dashboard/field-messages.ts).
  const text = m.startsWith(label) ? m : /^[a-z]/.test(m) ? `${label} ${m}` : `${label}: ${m}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

const ringName = (r: number) => (r === 0 ? "the outer ring" : `hole ${r}`);
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const latLon = (lon: string, lat: string) => `${Number(lat).toFixed(5)}, ${Number(lon).toFixed(5)}`;

/** One polygon error (its field path and message) as a sentence about corners and rings. */
export function polygonSentence(path: string, message: string): string {
  let text = message
    // An edge "coordinates[r][i]→[j]": the side between corners i+1 and j+1 (the closing position is corner 1 again).
    .replace(/(?:edge )?coordinates\[(\d+)\]\[(\d+)\]→\[(\d+)\]/g, (_, _r: string, i: string, j: string) => `the side from corner ${Number(i) + 1} to corner ${Number(j) + 1}`)
    // A position [lon, lat] (GeoJSON order) as "lat, lon".
    .replace(/\[(-?\d+(?:\.\d+)?(?:e-?\d+)?), (-?\d+(?:\.\d+)?(?:e-?\d+)?)\]/g, (_, lon: string, lat: string) => latLon(lon, lat))
    .replace(/\(positions (\d+) and (\d+)\)/, (_, a: string, b: string) => `(corners ${Number(a) + 1} and ${Number(b) + 1})`);
  // The path of a position's own problem ends in [ring][position] (and [0] or [1] for its longitude or latitude).
  const at = /coordinates\[(\d+)\](?:\[(\d+)\])?(?:\[[01]\])?$/.exec(path);
  text = text.replace(/\bring (\d+)\b/g, (_, r: string) => ringName(Number(r)));
  const aboutRing = /^(the outer ring|hole \d+)\b/.test(text);
  if (at && at[2] !== undefined) text = `corner ${Number(at[2]) + 1} of ${ringName(Number(at[1]))}: ${text}`;
  else if (at && !aboutRing) text = `${ringName(Number(at[1]))}: ${text}`;
  else if (!at && !aboutRing) text = /^required\b/.test(text) ? `the polygon is ${text}` : /^[a-z]/.test(text) ? `the polygon ${text}` : `the polygon: ${text}`;
  text = capitalise(text);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The polygon errors among a form's field errors (geometry, geometry.coordinates[…]…), as sentences. */
export function polygonSentences(fieldErrors: Record<string, string>): string[] {
  return Object.entries(fieldErrors)
    .filter(([k]) => k === "geometry" || k.startsWith("geometry.") || k === "shape")
    .map(([k, v]) => polygonSentence(k, v));
}
