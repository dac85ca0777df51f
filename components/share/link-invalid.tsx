// The "link no longer valid" state, shared by the page's 404 and the live page when a poll finds the link gone.

export function LinkInvalid() {
  return (
    <main id="main" tabIndex={-1} className="focus:outline-none flex min-h-dvh items-center justify-center bg-slate-100 px-6">
      <div className="w-full max-w-sm rounded-2xl bg-white p-8 text-center shadow-xl shadow-slate-900/5 ring-1 ring-slate-900/5">
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" className="h-6 w-6" aria-hidden="true">
            <path strokeLinecap="round" strokeLinejoin="round" d="M13.19 8.688a4.5 4.5 0 0 1 1.242 7.244l-4.5 4.5a4.5 4.5 0 0 1-6.364-6.364l1.757-1.757m13.35-.622 1.757-1.757a4.5 4.5 0 0 0-6.364-6.364l-4.5 4.5a4.5 4.5 0 0 0 1.242 7.244M3 3l18 18" />
          </svg>
        </div>
        <h1 className="mt-5 text-lg font-semibold text-slate-900">This link is no longer valid</h1>
        <p className="mt-2 text-sm leading-6 text-slate-600">
          It has expired or was turned off by the person who shared it. Ask them for a new link to keep following the location.
        </p>
        <p className="mt-6 text-xs font-medium tracking-wide text-slate-500">Shared with Fenceline</p>
      </div>
    </main>
  );
}
