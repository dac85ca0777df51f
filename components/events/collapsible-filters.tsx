"use client";
// On a phone the events page's five filters would fill the first screen before any event: there they fold behind one
// button that says how many are set. From 640 px up they are always shown and the button is not.
import { useId, useState, type ReactNode } from "react";
import { cx } from "@/components/ui";

export function CollapsibleFilters({ active, children }: { active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 text-left text-sm font-medium text-slate-800 sm:hidden"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <span>
          Filters
          <span className="ml-2 text-xs font-normal text-slate-500" data-testid="active-filters">
            {active === 0 ? "none set" : `${active} set`}
          </span>
        </span>
        <span aria-hidden className={cx("transition-transform", open && "rotate-90")}>
          ▸
        </span>
      </button>
      <div id={id} className={cx(open ? "mt-3 block" : "hidden", "sm:mt-0 sm:block")}>
        {children}
      </div>
    </>
  );
}
