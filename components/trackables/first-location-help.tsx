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
      <div className="relative mt-3">
        <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 pr-20 text-xs leading-relaxed text-slate-100" aria-label="curl command">
          <code>{curl}</code>
        </pre>
        <div className="absolute top-2 right-2">
          <CopyButton value={curl} label="Copy" />
        </div>
      </div>
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
