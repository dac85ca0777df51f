// How each tracking app is pointed at Fenceline: its endpoint, the link a phone can scan to configure it (where the
// app has one), and the settings to type otherwise. Pure functions of APP_URL and the token, shared by the dashboard
// panel, its tests and the README.

export type SetupApp = "owntracks" | "traccar-client" | "overland" | "gpslogger" | "osmand";

export const SETUP_APPS: ReadonlyArray<{ id: SetupApp; label: string; platforms: string }> = [
  { id: "owntracks", label: "OwnTracks", platforms: "iOS, Android" },
  { id: "traccar-client", label: "Traccar Client", platforms: "iOS, Android" },
  { id: "overland", label: "Overland", platforms: "iOS" },
  { id: "gpslogger", label: "GPSLogger", platforms: "Android" },
  { id: "osmand", label: "OsmAnd", platforms: "iOS, Android" },
];

const base = (appUrl: string) => appUrl.replace(/\/+$/, "");

/** The endpoint an app posts to. */
export function ingestUrl(appUrl: string, app: SetupApp): string {
  const path = app === "owntracks" ? "owntracks" : app === "overland" ? "overland" : "traccar";
  return `${base(appUrl)}/ingest/${path}`;
}

/** The user name OwnTracks sends with the token (it sends Basic credentials only when both are set; Fenceline ignores it). */
export const OWNTRACKS_USERNAME = "fenceline";

/**
 * OwnTracks' remote configuration link (booklet: features/remoteconfig, "URL config"): base64 of a `_type:
 * configuration` message with HTTP mode (3), the URL and the credentials. The base64 is percent-encoded: the Android app
 * URL-decodes the query (LoadViewModel, java.net.URLDecoder), which would turn a raw "+" into a space.
 */
export function owntracksConfigLink(appUrl: string, token: string): string {
  const config = {
    _type: "configuration",
    mode: 3,
    url: ingestUrl(appUrl, "owntracks"),
    auth: true,
    username: OWNTRACKS_USERNAME,
    password: token,
  };
  // btoa of the UTF-8 bytes: runs in the browser (the panel) and in Node alike.
  const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(config))));
  return `owntracks:///config?inline=${encodeURIComponent(base64)}`;
}

/** Overland's set-up link (Overland-iOS README, "Configuration by Custom URL"). */
export const overlandSetupLink = (appUrl: string, token: string): string =>
  `overland://setup?url=${encodeURIComponent(ingestUrl(appUrl, "overland"))}&token=${encodeURIComponent(token)}`;

/**
 * Traccar Client 9's QR code: an http(s) URL whose origin and path become the server URL and whose `id` the device
 * identifier (traccar-client lib/configuration_service.dart, applyUri).
 */
export const traccarClientLink = (appUrl: string, token: string): string => `${ingestUrl(appUrl, "traccar-client")}?id=${token}`;

/** The link to encode in a QR code for the app, or null when the app has no scannable set-up. */
export function setupLink(app: SetupApp, appUrl: string, token: string): string | null {
  if (app === "owntracks") return owntracksConfigLink(appUrl, token);
  if (app === "overland") return overlandSetupLink(appUrl, token);
  if (app === "traccar-client") return traccarClientLink(appUrl, token);
  return null;
}

/**
 * GPSLogger's custom URL (placeholders as mendhak/gpslogger's CustomUrlManager fills them). No speed: GPSLogger has
 * no placeholder in knots, the unit of this protocol's `speed`.
 */
export const gpsloggerUrl = (appUrl: string, token: string): string =>
  `${ingestUrl(appUrl, "gpslogger")}?id=${token}&lat=%LAT&lon=%LON&timestamp=%TIMESTAMP&altitude=%ALT&accuracy=%ACC&bearing=%DIR&batt=%BATT`;

/** OsmAnd's online tracking web address ({0} lat, {1} lon, {2} time in ms, {4} altitude); its speed is not in knots either. */
export const osmandUrl = (appUrl: string, token: string): string =>
  `${ingestUrl(appUrl, "osmand")}?id=${token}&lat={0}&lon={1}&timestamp={2}&altitude={4}`;

/** How the dashboard names a Location.source. */
export const SOURCE_LABELS: Record<"api" | "owntracks" | "traccar" | "overland", string> = {
  api: "the API",
  owntracks: "OwnTracks",
  traccar: "Traccar Client, OsmAnd or GPSLogger",
  overland: "Overland",
};
