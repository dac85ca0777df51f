"use client";
import dynamic from "next/dynamic";

export const PrivacyZoneMap = dynamic(() => import("./zone-map"), {
  ssr: false,
  loading: () => <div className="h-80 w-full animate-pulse rounded-lg bg-slate-100" aria-hidden="true" />,
});
