// The newest points of the selected range as a table (every point is in the API and the download).
import { Card, ScrollTable, Time } from "@/components/ui";
import type { Location } from "@/lib/locations/schemas";
import { BatteryIndicator } from "./indicators";
import { formatSpeed } from "./latest-details";

export function RecentPoints({ points, rows, threshold }: { points: Location[]; rows: number; threshold: number }) {
  if (points.length === 0) return null;
  return (
    <Card aria-labelledby="recent-heading" className="overflow-hidden">
      <div className="flex flex-wrap items-baseline justify-between gap-2 px-4 pt-4 sm:px-5">
        <h2 id="recent-heading" className="text-base font-semibold text-slate-900">
          Recent points
        </h2>
        <p className="text-xs text-slate-500">
          Newest first, {Math.min(rows, points.length)} of {points.length.toLocaleString("en")} in this range; every
          point through <code className="rounded bg-slate-100 px-1 py-0.5 text-slate-700">GET /api/v1/trackables/{"{id}"}/locations</code>.
        </p>
      </div>
      <ScrollTable label="Recent locations" className="mt-3">
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-labelledby="recent-heading">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-2 sm:px-5">Time</th>
              <th scope="col" className="hidden px-4 py-2 sm:table-cell">Position</th>
              <th scope="col" className="hidden px-4 py-2 sm:table-cell">Accuracy</th>
              <th scope="col" className="hidden px-4 py-2 md:table-cell">Speed</th>
              <th scope="col" className="px-4 py-2">Battery</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums">
            {points
              .slice(-rows)
              .reverse()
              .map((p) => (
                <tr key={p.id} data-testid="recent-point">
                  <td className="px-4 py-2 whitespace-nowrap text-slate-700 sm:px-5">
                    <Time value={p.timestamp} seconds />
                    <span className="block font-mono text-xs text-slate-500 sm:hidden">
                      {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)}
                    </span>
                  </td>
                  <td className="hidden px-4 py-2 font-mono text-xs whitespace-nowrap text-slate-700 sm:table-cell">
                    {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)}
                  </td>
                  <td className="hidden px-4 py-2 text-slate-600 sm:table-cell">{p.accuracy != null ? `±${Math.round(p.accuracy)} m` : "—"}</td>
                  <td className="hidden px-4 py-2 text-slate-600 md:table-cell">{p.speed != null ? formatSpeed(p.speed) : "—"}</td>
                  <td className="px-4 py-2">
                    <BatteryIndicator level={p.battery} threshold={threshold} />
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </ScrollTable>
    </Card>
  );
}
