"use client";
// Kept apart from the map's modules: the form (rendered on the server too) asks it, and Leaflet needs a window.
import { useEffect, useState } from "react";

/** Which input the device has: the hint names right-click only where there is a mouse. */
export function useCoarsePointer(): boolean {
  const [coarse, setCoarse] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(pointer: coarse)");
    setCoarse(query.matches);
    const changed = () => setCoarse(query.matches);
    query.addEventListener("change", changed);
    return () => query.removeEventListener("change", changed);
  }, []);
  return coarse;
}
