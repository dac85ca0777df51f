"use client";
import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui";

const LINKS = [
  { href: "/trackables", label: "Trackables" },
  { href: "/geofences", label: "Geofences" },
  { href: "/events", label: "Events" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/deliveries", label: "Deliveries" },
  { href: "/api-keys", label: "API keys" },
  { href: "/account", label: "Account" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="overflow-x-auto px-2 pb-2 lg:px-3 lg:pb-0">
      <ul className="flex gap-1 lg:flex-col">
        {LINKS.map((l) => {
          const active = pathname === l.href || pathname.startsWith(`${l.href}/`);
          return (
            <li key={l.href}>
              <Link
                href={l.href}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "flex items-center justify-between gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium",
                  active ? "bg-indigo-50 text-indigo-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                )}
              >
                {l.label}
                <PendingDot />
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

// While the page a link leads to renders on the server, the link shows a small spinner (dashboard pages are dynamic).
function PendingDot() {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden="true"
      className={cx(
        "h-3 w-3 rounded-full border-2 border-indigo-300 border-t-indigo-600 transition-opacity",
        pending ? "animate-spin opacity-100" : "opacity-0",
      )}
    />
  );
}
