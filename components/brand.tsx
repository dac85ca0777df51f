export function Logo({ className }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 text-lg font-semibold tracking-tight text-slate-900 ${className ?? ""}`}>
      <svg viewBox="0 0 24 24" className="h-7 w-7" aria-hidden="true">
        <circle cx="12" cy="12" r="10" fill="#eef2ff" stroke="#4f46e5" strokeWidth="1.6" strokeDasharray="3 2" />
        <circle cx="12" cy="12" r="3.2" fill="#4f46e5" />
      </svg>
      Fenceline
    </span>
  );
}
