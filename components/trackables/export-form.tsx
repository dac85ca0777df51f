// Download the track's range as GPX, GeoJSON or CSV: a plain GET form to the dashboard's export route, which streams
// the file with the same verb as GET /api/v1/trackables/{id}/locations/export (works without JavaScript).
import { buttonClass, cx, inputClass } from "@/components/ui";
import type { TimeRange } from "@/lib/dashboard/time-range";

const FORMATS = [
  { id: "gpx", label: "GPX (GPS apps)" },
  { id: "geojson", label: "GeoJSON (GIS)" },
  { id: "csv", label: "CSV (spreadsheets)" },
] as const;

export function ExportForm({ trackableId, range }: { trackableId: string; range: TimeRange }) {
  return (
    <form
      method="get"
      action={`/api/internal/trackables/${trackableId}/locations/export`}
      className="flex flex-wrap items-end gap-2"
      aria-label="Download this range"
    >
      <input type="hidden" name="from" value={range.from.toISOString()} />
      {range.to ? <input type="hidden" name="to" value={range.to.toISOString()} /> : null}
      <label className="text-xs font-medium text-slate-700">
        Format
        <select name="format" defaultValue="gpx" className={cx(inputClass, "mt-1 block w-auto py-1.5")}>
          {FORMATS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("secondary", "md")}>
        Download
      </button>
    </form>
  );
}
