import type { Metadata } from "next";

// Public share pages: never indexed, and the token in the URL never leaves in a Referer (to the tile server, say).
export const metadata: Metadata = {
  title: "Shared location",
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export default function ShareLayout({ children }: { children: React.ReactNode }) {
  return children;
}
