"use client";
import { useEffect, useRef, useState, type ReactNode } from "react";

const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(" ");

/**
 * A wide table that scrolls inside its box instead of widening the page. While more of it lies to the right (or to the
 * left) an edge shadow shows on that side, and a "Scroll →" hint under it says so; the region is focusable and named,
 * so a keyboard can scroll it too.
 */
export function ScrollTable({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
    };
    measure();
    el.addEventListener("scroll", measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => {
      el.removeEventListener("scroll", measure);
      observer.disconnect();
    };
  }, []);

  const scrollable = edges.left || edges.right;
  return (
    <div className={className} data-testid="scroll-table">
      <div className="relative">
      <div
        ref={ref}
        className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
        // Focusable only when it scrolls: axe asks for keyboard access to scrollable regions.
        tabIndex={scrollable ? 0 : undefined}
        role={scrollable ? "region" : undefined}
        aria-label={scrollable ? label : undefined}
      >
        {children}
      </div>
      <div
        aria-hidden="true"
        className={cx(
          "pointer-events-none absolute inset-y-0 left-0 w-6 bg-gradient-to-r from-slate-900/10 to-transparent transition-opacity",
          edges.left ? "opacity-100" : "opacity-0",
        )}
      />
      <div
        aria-hidden="true"
        className={cx(
          "pointer-events-none absolute inset-y-0 right-0 w-6 bg-gradient-to-l from-slate-900/10 to-transparent transition-opacity",
          edges.right ? "opacity-100" : "opacity-0",
        )}
      />
      </div>
      {edges.right ? (
        <p aria-hidden="true" data-testid="scroll-hint" className="border-t border-slate-100 px-4 py-1.5 text-right text-xs font-medium text-slate-600">
          Scroll →
        </p>
      ) : null}
    </div>
  );
}
