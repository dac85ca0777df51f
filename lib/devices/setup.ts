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
 * Traccar Client's set-up link (traccar-client lib/configuration_service.dart, applyUri, since 9.6): its own
 * org.traccar.client scheme opens the app from the camera or a tap on the phone, and its QR scanner reads it too; `url`
 * becomes the server URL and `id` the device identifier. (An http(s) link would open the browser on the ingest URL.)
 */
export const traccarClientLink = (appUrl: string, token: string): string =>
  `org.traccar.client://setup?url=${encodeURIComponent(ingestUrl(appUrl, "traccar-client"))}&id=${encodeURIComponent(token)}`;

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

/** Apps whose iOS versions refuse a plain-http server URL (App Transport Security). */
export const HTTPS_ONLY_APPS: readonly SetupApp[] = ["owntracks", "overland"];

/**
 * What keeps a phone from using APP_URL as it is: a loopback or unspecified host (on the phone that is the phone
 * itself), or plain http (which OwnTracks and Overland refuse). Null when neither applies.
 */
export function phoneReach(appUrl: string): { loopback: boolean; plainHttp: boolean } | null {
  let url: URL;
  try {
    url = new URL(appUrl);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const loopback = host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1" || host === "0.0.0.0" || host === "::";
  const plainHttp = url.protocol === "http:";
  return loopback || plainHttp ? { loopback, plainHttp } : null;
}

/** How the dashboard names a Location.source. */
export const SOURCE_LABELS: Record<"api" | "owntracks" | "traccar" | "overland" | "import", string> = {
  api: "the API",
  owntracks: "OwnTracks",
  traccar: "Traccar Client, OsmAnd or GPSLogger",
  overland: "Overland",
  import: "an imported file",
};
