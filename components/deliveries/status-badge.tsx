import { Badge } from "@/components/ui";

const COLORS = { pending: "yellow", succeeded: "green", failed: "red" } as const;
const LABELS = { pending: "Pending", succeeded: "Succeeded", failed: "Failed" } as const;

export function DeliveryStatusBadge({ status }: { status: "pending" | "succeeded" | "failed" }) {
  return (
    <Badge color={COLORS[status]} data-testid="delivery-status">
      {LABELS[status]}
    </Badge>
  );
}

/** The HTTP status of an answer, coloured like the outcome (2xx green, others red); a dash when nothing answered. */
export function HttpCode({ code }: { code: number | null }) {
  if (code === null) return <span className="text-slate-500">—</span>;
  const ok = code >= 200 && code < 300;
  return <span className={ok ? "font-mono text-emerald-700" : "font-mono text-red-700"}>{code}</span>;
}
