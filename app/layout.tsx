import type { Metadata } from "next";
import "./globals.css";
import { SkipLink } from "@/components/ui";

export const metadata: Metadata = {
  title: { default: "Fenceline", template: "%s · Fenceline" },
  description: "Self-hostable location tracking with geofences and signed webhooks",
};

// Every page is rendered per request: its Content-Security-Policy carries a fresh nonce that Next.js puts on its inline
// scripts (lib/server/security-headers.ts), and a page prerendered at build time could carry none.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <SkipLink />
        {children}
      </body>
    </html>
  );
}
