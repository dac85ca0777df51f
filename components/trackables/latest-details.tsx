// The trackable's newest position, field by field (the side card of its page), and the speed format it shares with
// the recent points table.
import { Time } from "@/components/ui";
import { formatCoord } from "@/lib/dashboard/format";
import { SOURCE_LABELS } from "@/lib/devices/setup";
import type { Location } from "@/lib/locations/schemas";
import { BatteryIndicator } from "./indicators";

const COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
const formatHeading = (deg: number) => `${Math.round(deg)}° ${COMPASS[Math.round(deg / 45) % 8]}`;
export const formatSpeed = (ms: number) => `${ms.toLocaleString("en", { maximumFractionDigits: 1 })} m/s (${Math.round(ms * 3.6)} km/h)`;

export function LatestDetails({ location, threshold }: { location: Location; threshold: number }) {
  const rows: [string, React.ReactNode][] = [
    [
      "Recorded",
      <>
        <Time value={location.timestamp} seconds />
        <Time className="block text-xs text-slate-500" value={location.timestamp} relative />
      </>,
    ],
    ["Latitude", <span key="lat" className="font-mono">{formatCoord(location.latitude)}</span>],
    ["Longitude", <span key="lon" className="font-mono">{formatCoord(location.longitude)}</span>],
    ["Accuracy", location.accuracy != null ? `±${location.accuracy.toLocaleString("en", { maximumFractionDigits: 1 })} m` : "Not reported"],
    ["Speed", location.speed != null ? formatSpeed(location.speed) : "Not reported"],
    ["Heading", location.heading != null ? formatHeading(location.heading) : "Not reported"],
    ["Altitude", location.altitude != null ? `${location.altitude.toLocaleString("en", { maximumFractionDigits: 1 })} m` : "Not reported"],
    ["Battery", location.battery != null ? <BatteryIndicator key="b" level={location.battery} threshold={threshold} /> : "Not reported"],
    ["Received", <Time key="r" value={location.receivedAt} seconds />],
    ["Source", <span key="s" data-testid="latest-source">{SOURCE_LABELS[location.source]}</span>],
  ];
  return (
    <dl className="mt-3 divide-y divide-slate-100 text-sm" data-testid="latest-details">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 py-2">
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-right text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
