// How to post a first location: the exact curl for this install and trackable, with where to get a key.
import Link from "next/link";
import { CopyButton } from "@/components/ui/copy-button";

export function firstLocationCurl(appUrl: string, trackableId: string): string {
  return [
    `curl -X POST "${appUrl.replace(/\/$/, "")}/api/v1/trackables/${trackableId}/locations" \\`,
    `  -H "Authorization: Bearer $FENCELINE_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"latitude": 52.5200, "longitude": 13.4050, "accuracy": 8, "battery": 87}'`,
  ].join("\n");
}

/** A shell command in a dark block with a copy button above it (never over the text, which scrolls sideways). */
export function CommandBlock({ command, label }: { command: string; label: string }) {
  return (
    <div className="mt-3 overflow-hidden rounded-lg bg-slate-900 text-left">
      <div className="flex items-center justify-between border-b border-white/10 px-4 py-2">
        <span className="text-xs font-medium text-slate-400">Terminal</span>
        <CopyButton value={command} label="Copy command" />
      </div>
      <pre tabIndex={0} className="overflow-x-auto p-4 text-xs leading-relaxed text-slate-100" aria-label={label}>
        <code>{command}</code>
      </pre>
    </div>
  );
}

export function createTrackableCurl(appUrl: string): string {
  return [
    `curl -X POST "${appUrl.replace(/\/$/, "")}/api/v1/trackables" \\`,
    `  -H "Authorization: Bearer $FENCELINE_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"name": "Van 12", "type": "vehicle"}'`,
  ].join("\n");
}

export function FirstLocationHelp({ appUrl, trackableId, trackableName }: { appUrl: string; trackableId: string; trackableName: string }) {
  const curl = firstLocationCurl(appUrl, trackableId);
  return (
    <div className="text-left" data-testid="first-location-help">
      <ol className="space-y-3 text-sm text-slate-700">
        <li>
          <span className="font-medium text-slate-900">1. Get an API key</span> on the{" "}
          <Link href="/api-keys" className="font-medium text-indigo-600 hover:text-indigo-500">
            API keys
          </Link>{" "}
          page and put it in <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">FENCELINE_API_KEY</code>.
        </li>
        <li>
          <span className="font-medium text-slate-900">2. Post a position</span> for “{trackableName}” (id{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 text-xs break-all">{trackableId}</code>):
        </li>
      </ol>
      <CommandBlock command={curl} label="curl command" />
      <p className="mt-3 text-sm text-slate-600">
        It appears here within a second. Send batches of up to 1000 with{" "}
        <code className="rounded bg-slate-100 px-1 py-0.5 text-xs">{`{"locations": [...]}`}</code>; every field is in the{" "}
        <Link href="/docs/api" className="font-medium text-indigo-600 hover:text-indigo-500">
          API reference
        </Link>
        .
      </p>
    </div>
  );
}
