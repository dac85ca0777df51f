"use client";
// The geofence editor's selection in the address bar (?geofence=<id>, ?new=1, or nothing), kept by real router
// navigations. A bare history.replaceState would be quicker, but Next.js then keeps the page's previous search in
// its own state: the next router.refresh() (the layout's live data, every 5 s) asks for the wrong page, and under load
// the retry ends in a full page load that drops the form and any open dialog.
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useEffectEvent, useRef } from "react";

export type Selection = { id: string | null; isNew: boolean };

/**
 * `setUrl(query)` puts the editor's selection in the URL; `onFollow` is called with a selection the URL asks for that
 * the editor did not set itself (a link followed, the nav's plain /geofences), and once on mount. The editor's own
 * navigations are not echoed back: one that commits late, after the user has already chosen something else, would
 * otherwise undo that choice.
 */
export function useSelectionUrl(onFollow: (wanted: Selection) => void): (query: string) => void {
  const router = useRouter();
  const searchParams = useSearchParams();
  const query = searchParams.toString();
  // The queries the editor navigated to and has not yet seen committed, oldest first.
  const own = useRef<string[]>([]);
  const follow = useEffectEvent(onFollow);
  useEffect(() => {
    const i = own.current.indexOf(query);
    if (i !== -1) {
      // Its own (and any older of its own that were superseded before they committed).
      own.current.splice(0, i + 1);
      return;
    }
    // A navigation from elsewhere supersedes whatever the editor asked for before it.
    own.current = [];
    const params = new URLSearchParams(query);
    follow({ id: params.get("geofence"), isNew: params.get("new") === "1" });
  }, [query]);
  return useCallback(
    (next: string) => {
      own.current.push(new URLSearchParams(next).toString());
      router.replace(`/geofences${next}`, { scroll: false });
    },
    [router],
  );
}
