"use client";
import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { cx } from "@/components/ui";
import { can, type Permission, type Role } from "@/lib/teams/roles";

/**
 * The dashboard's pages, in menu order, each with the permission its page asks for: add a line here to add a page to
 * the navigation. A role without the permission does not see the link (the page itself refuses it too).
 */
const LINKS: readonly { href: string; label: string; permission: Permission }[] = [
  { href: "/trackables", label: "Trackables", permission: "workspace.read" },
  { href: "/geofences", label: "Geofences", permission: "workspace.read" },
  { href: "/privacy-zones", label: "Privacy zones", permission: "workspace.read" },
  { href: "/events", label: "Events", permission: "workspace.read" },
  { href: "/webhooks", label: "Webhooks", permission: "webhooks.manage" },
  { href: "/deliveries", label: "Deliveries", permission: "webhooks.manage" },
  { href: "/notifications", label: "Notifications", permission: "notifications.manage" },
  { href: "/api-keys", label: "API keys", permission: "apiKeys.manage" },
  { href: "/audit-log", label: "Audit log", permission: "auditLog.read" },
  { href: "/account", label: "Account", permission: "workspace.read" },
];

/**
 * The dashboard navigation: a sidebar list from `lg` up; below it a "Menu" disclosure button that opens the same list
 * (instead of a tab bar clipped at the screen's edge). The menu closes on navigation, on Escape (focus back on the
 * button) and when the focus or a click goes elsewhere.
 */
export function NavLinks({ role, footer }: { role: Role; footer?: React.ReactNode }) {
  const pathname = usePathname();
  const links = LINKS.filter((l) => can(role, l.permission));
  const [open, setOpen] = useState(false);
  const listId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  const current = links.find((l) => pathname === l.href || pathname.startsWith(`${l.href}/`));

  // A navigation closes the menu (the layout, and with it this component, stays mounted across pages).
  const [shownFor, setShownFor] = useState(pathname);
  if (shownFor !== pathname) {
    setShownFor(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (navRef.current && !navRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <nav
      ref={navRef}
      aria-label="Dashboard"
      className="lg:flex lg:min-h-0 lg:flex-1 lg:flex-col lg:px-3"
      onBlur={(e) => {
        if (open && e.relatedTarget && !e.currentTarget.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 lg:hidden"
      >
        <MenuIcon open={open} />
        Menu
      </button>
      {/* Below lg: a panel under the header, above the page (and its maps: Leaflet's panes reach z-index 1000). */}
      <div
        id={listId}
        className={cx(
          open ? "block" : "hidden",
          "absolute inset-x-0 top-full z-[1100] border-b border-slate-200 bg-white px-2 pt-2 pb-3 shadow-lg",
          "lg:static lg:flex lg:flex-1 lg:flex-col lg:border-0 lg:p-0 lg:shadow-none",
        )}
      >
        <ul className="flex flex-col gap-1">
          {links.map((l) => {
            const active = l === current;
            return (
              <li key={l.href}>
                <Link
                  href={l.href}
                  aria-current={active ? "page" : undefined}
                  onClick={() => setOpen(false)}
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
        {footer ? <div className="mt-2 border-t border-slate-200 px-3 pt-3 lg:-mx-3 lg:mt-auto lg:px-5 lg:py-4">{footer}</div> : null}
      </div>
    </nav>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
      {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
    </svg>
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
