// Markers drawn with CSS (L.divIcon): Leaflet's default PNG icons break under bundlers and need no network here.
import L from "leaflet";

export function dotIcon(opts: { color?: string; label?: string; pulse?: boolean } = {}): L.DivIcon {
  const color = opts.color ?? "#4f46e5";
  const label = opts.label ? `<span class="fl-marker-label">${escapeHtml(opts.label)}</span>` : "";
  return L.divIcon({
    className: "fl-marker",
    html: `<span class="fl-marker-dot${opts.pulse ? " fl-marker-pulse" : ""}" style="--fl-color:${color}"></span>${label}`,
    iconSize: [18, 18],
    iconAnchor: [9, 9],
  });
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
