// /share/{token} — the public live-location page of a share link (no sign-in); 404 "no longer valid" when the link is not
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { LiveShare } from "@/components/share/live-share";
import { mapConfig } from "@/lib/config/map";
import { getDb } from "@/lib/db/client";
import { findSharedTrackable } from "@/lib/share-links/share-links";

export const dynamic = "force-dynamic";

// One look-up per request, shared by the metadata and the page.
const lookUp = cache(async (token: string) => findSharedTrackable({ db: await getDb(), token }));

interface Props {
  params: Promise<{ token: string }>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const view = await lookUp((await params).token);
  return view ? { title: `${view.trackable.name} · live location` } : {};
}

export default async function SharePage({ params }: Props) {
  const { token } = await params;
  const view = await lookUp(token);
  if (!view) notFound();
  return <LiveShare token={token} initial={view} renderedAt={Date.now()} mapConfig={mapConfig()} />;
}
