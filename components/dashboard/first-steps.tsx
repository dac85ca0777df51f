import { cookies } from "next/headers";
import Link from "next/link";
import { Card, cx } from "@/components/ui";
import type { Ctx } from "@/lib/context";
import { firstSteps } from "@/lib/dashboard/first-steps";
import { DismissFirstSteps } from "./dismiss-first-steps";
import { FIRST_STEPS_COOKIE } from "@/lib/dashboard/first-steps-cookie";

/**
 * The getting-started checklist at the top of the trackables page: each step ticks itself off from the account's
 * data (lib/dashboard/first-steps.ts) and links to where it is done; once all are done it can be dismissed.
 */
export async function FirstSteps({ ctx }: { ctx: Ctx }) {
  if ((await cookies()).get(FIRST_STEPS_COOKIE)?.value === ctx.account.id) return null;
  const steps = await firstSteps({ ctx });
  const done = steps.filter((s) => s.done).length;
  const all = done === steps.length;
  const next = steps.find((s) => !s.done);
  return (
    <Card aria-labelledby="first-steps-heading" className="mb-6 p-5" data-testid="first-steps">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="first-steps-heading" className="text-base font-semibold text-slate-900">
            {all ? "You are all set" : "First steps"}
          </h2>
          <p className="mt-1 text-sm text-slate-600" data-testid="first-steps-progress">
            {done} of {steps.length} done
            {all ? ": your devices report, and your server hears about it." : ""}
          </p>
        </div>
        {all ? <DismissFirstSteps /> : null}
      </div>
      <div className="mt-3 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <div className="h-full rounded-full bg-emerald-500" style={{ width: `${(done / steps.length) * 100}%` }} />
      </div>
      {all ? null : (
        <ol className="mt-4 grid gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {steps.map((s, i) => (
            <li
              key={s.id}
              data-testid="first-step"
              data-step={s.id}
              data-done={s.done}
              className={cx("flex gap-3 rounded-lg p-3 ring-1 ring-inset", s === next ? "bg-indigo-50/60 ring-indigo-200" : "ring-slate-200")}
            >
              <StepMark done={s.done} n={i + 1} />
              <div className="min-w-0">
                {s.done ? (
                  <p className="text-sm font-medium text-slate-600">
                    <span className="line-through decoration-slate-400">{s.title}</span>
                    <span className="sr-only"> (done)</span>
                  </p>
                ) : (
                  <Link href={s.href} className="text-sm font-medium text-indigo-700 hover:underline">
                    {s.title}
                  </Link>
                )}
                {/* On a phone only the next step explains itself, so the list stays short. */}
                {s.done ? null : <p className={cx("mt-0.5 text-xs text-slate-600", s !== next && "hidden sm:block")}>{s.how}</p>}
                {s.problem && !s.done ? (
                  <p className="mt-1 text-xs text-red-700">
                    <Link href={s.problem.href} className="underline">
                      {s.problem.text}
                    </Link>
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function StepMark({ done, n }: { done: boolean; n: number }) {
  return done ? (
    <span aria-hidden="true" className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white">
      <svg viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M5 10.5l3.2 3L15 7" />
      </svg>
    </span>
  ) : (
    <span aria-hidden="true" className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset">
      {n}
    </span>
  );
}
