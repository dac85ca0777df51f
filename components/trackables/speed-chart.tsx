// Speed over a trip's time as a plain SVG line (rendered on the server): the line stretches to the card's width, the
// labels are HTML so they keep their size on a phone.
import { Time } from "@/components/ui";
import type { SpeedSample } from "@/lib/motion/dashboard";

const W = 600;
const H = 120;

/** A round top for the scale: 10, 20, 50, 100, 200, … km/h, at least the fastest sample. */
function scaleTop(max: number): number {
  for (let step = 10; ; step *= 10) for (const m of [1, 2, 5]) if (m * step >= max) return m * step;
}

/** `samples` may be thinned for drawing; `positions` is how many fixes they stand for. */
export function SpeedChart({ samples, positions }: { samples: SpeedSample[]; positions: number }) {
  if (samples.length < 2) return <p className="text-sm text-slate-600">Too few positions for a speed chart.</p>;
  const start = samples[0]!.at;
  const span = Math.max(1, samples.at(-1)!.at - start);
  const fastest = Math.max(...samples.map((s) => s.kmh));
  const top = scaleTop(Math.max(1, fastest));
  const points = samples.map((s) => `${(((s.at - start) / span) * W).toFixed(1)},${(H - (s.kmh / top) * H).toFixed(1)}`).join(" ");
  const label = `Speed over time: ${positions} positions, up to ${Math.round(fastest)} km/h`;
  return (
    <figure className="min-w-0" data-testid="speed-chart" data-samples={samples.length}>
      <figcaption className="mb-1 flex justify-between text-xs text-slate-500">
        <span>Speed (km/h)</span>
        <span>max {Math.round(fastest)} km/h</span>
      </figcaption>
      <div className="flex gap-2">
        <div className="flex flex-col justify-between text-right text-xs text-slate-500 tabular-nums" aria-hidden="true">
          <span>{top}</span>
          <span>{top / 2}</span>
          <span>0</span>
        </div>
        <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={label} className="h-32 min-w-0 flex-1 rounded bg-slate-50 ring-1 ring-slate-200">
          <line x1={0} x2={W} y1={H / 2} y2={H / 2} stroke="#e2e8f0" vectorEffect="non-scaling-stroke" />
          <polygon points={`0,${H} ${points} ${W},${H}`} fill="#6366f1" fillOpacity={0.12} />
          <polyline points={points} fill="none" stroke="#4f46e5" strokeWidth={2} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
        </svg>
      </div>
      <div className="mt-1 flex justify-between pl-8 text-xs text-slate-500">
        <Time value={new Date(start)} clock />
        <Time value={new Date(start + span)} clock />
      </div>
    </figure>
  );
}
