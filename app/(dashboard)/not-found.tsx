import { ButtonLink, Card } from "@/components/ui";

// Unknown ids, malformed ids and other workspaces' ids all land here, inside the dashboard (never a hint of which).
export default function DashboardNotFound() {
  return (
    <Card className="mx-auto mt-10 max-w-lg p-8 text-center">
      <h1 className="text-lg font-semibold text-slate-900">Not found in this workspace</h1>
      <p className="mt-2 text-sm text-slate-600">
        It may have been deleted, or the link may point to another workspace.
      </p>
      <ButtonLink href="/trackables" variant="secondary" className="mt-6">
        Back to trackables
      </ButtonLink>
    </Card>
  );
}
