"use client";
// Import a history file into the trackable: the file goes to the dashboard's import route (the same verb as
// POST /api/v1/trackables/{id}/imports), which answers once it is uploaded; the server then reads it in the background,
// and the trackable's newest import is polled for its counts until it has ended.
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { Alert, Button, Card, inputClass } from "@/components/ui";
import type { ImportChoices } from "@/lib/imports/choices";
import type { Import } from "@/lib/imports/schemas";

const POLL_MS = 1000;

/** A list in words: "a, b or c". */
const orList = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? ""));

/** `choices` comes from lib/imports (importChoices): the formats and the size limit the server enforces. */
export function ImportPanel({ trackableId, choices }: { trackableId: string; choices: ImportChoices }) {
  const router = useRouter();
  const fileRef = useRef<HTMLInputElement>(null);
  const [running, setRunning] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState<Import | null>(null);
  const [result, setResult] = useState<Import | null>(null);
  const [error, setError] = useState<string | null>(null);
  const base = `/api/internal/trackables/${trackableId}/imports`;

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setError("Choose a file to import.");
      return;
    }
    setError(null);
    setResult(null);
    setProgress(null);
    setRunning(true);
    setUploading(true);
    try {
      const body = new FormData();
      body.append("file", file, file.name);
      const res = await fetch(base, { method: "POST", body });
      const json = await res.json();
      setUploading(false);
      if (!res.ok) {
        setError(json?.error?.message ?? `The import failed (HTTP ${res.status}).`);
        return;
      }
      let current = json as Import;
      setProgress(current);
      while (current.status === "running") {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const latest = await fetch(base, { cache: "no-store" }).catch(() => null);
        // A poll that failed (the server restarting) is tried again: the import goes on, or is ended, on the server.
        if (!latest?.ok) continue;
        const data = ((await latest.json()) as { data: Import | null }).data;
        if (!data || data.id !== current.id) {
          setError("Another import of this trackable started meanwhile: this one goes on in the background.");
          return;
        }
        current = data;
        setProgress(current);
      }
      setResult(current);
      router.refresh();
    } catch {
      setError("The upload was interrupted. Try again.");
    } finally {
      setRunning(false);
      setUploading(false);
      setProgress(null);
    }
  }

  return (
    <Card aria-labelledby="import-heading" className="p-4 sm:p-5">
      <h2 id="import-heading" className="text-base font-semibold text-slate-900">
        Import history
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {orList(choices.labels)}, up to {choices.maxSize}. Positions already stored are skipped; imported history raises no
        geofence events.
      </p>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2" aria-label="Import a history file">
        <label className="min-w-0 text-xs font-medium text-slate-700">
          File
          <input ref={fileRef} type="file" name="file" accept={choices.accept} className={`${inputClass} mt-1 block w-full max-w-xs py-1.5`} />
        </label>
        <Button type="submit" variant="secondary" disabled={running}>
          {running ? "Importing…" : "Import"}
        </Button>
      </form>
      <div aria-live="polite" className="mt-3 space-y-2">
        {running ? (
          <p className="text-sm text-slate-700" data-testid="import-progress">
            {uploading || !progress
              ? "Uploading the file…"
              : `Reading the file: ${progress.processed.toLocaleString("en")} records, ${progress.stored.toLocaleString("en")} stored so far…`}
          </p>
        ) : null}
        {error ? <Alert>{error}</Alert> : null}
        {result ? <ImportResult result={result} /> : null}
      </div>
    </Card>
  );
}

function ImportResult({ result }: { result: Import }) {
  const summary =
    `${result.stored.toLocaleString("en")} of ${result.processed.toLocaleString("en")} positions stored` +
    (result.skipped > 0 ? `, ${result.skipped.toLocaleString("en")} skipped (invalid or already stored)` : "") +
    ".";
  return (
    <div data-testid="import-result">
      <Alert tone={result.status === "completed" ? "success" : "error"}>
        {result.status === "completed" ? `Imported: ${summary}` : `The file could not be read to its end: ${summary}`}
      </Alert>
      {result.errors.length > 0 ? (
        <>
          <h3 className="mt-3 text-sm font-medium text-slate-900">Problems{result.errors.length >= 20 ? " (the first 20)" : ""}</h3>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm break-words text-slate-700">
            {result.errors.map((e, i) => (
              <li key={i}>
                {e.line !== undefined ? `Line ${e.line}: ` : e.index !== undefined ? `Record ${e.index + 1}: ` : ""}
                {e.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
