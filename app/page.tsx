import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Fenceline</h1>
      <p className="mt-3 text-slate-600">
        Location tracking for your devices: report positions, draw geofences, receive signed webhooks when a device
        enters or leaves one.
      </p>
      <div className="mt-8 flex gap-4">
        <Link className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700" href="/docs/api">
          API reference
        </Link>
        <a className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-white" href="/api/v1/openapi.json">
          OpenAPI document
        </a>
      </div>
    </main>
  );
}
