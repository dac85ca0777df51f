import { getDb } from "@/lib/db/client";
import type { RequestLike } from "@/lib/http/body";
import { ApiError } from "@/lib/http/errors";
import { toErrorResponse } from "@/lib/http/handler";
import { env } from "@/lib/config/env";
import { ingestLocations } from "@/lib/locations/locations";
import type { Location } from "@/lib/locations/schemas";
import { getLimiter, rateLimitHeaders } from "@/lib/rate-limit";
import type { DeviceFormat } from "./formats/common";
import { verifyDeviceToken } from "./tokens";

/** The per-token limiter of the /ingest endpoints (DEVICE_RATE_LIMIT_PER_MINUTE). */
export const deviceLimiter = () => getLimiter("device", env().DEVICE_RATE_LIMIT_PER_MINUTE, 60);

/**
 * Stores what a tracking app posted, through the same verb as POST /api/v1/…/locations: the app's request is read
 * (400/413/415), its token authenticated (401, with the app's WWW-Authenticate), the token's rate limit charged (429),
 * its points validated (400, or skipped where the format says so), stored in one insert with exact resends dropped,
 * and only then the app's success reply. Every error is the JSON envelope; nothing else reaches the app.
 *
 * Works on a web Request or what the app server's lean device path makes of a node request (RequestLike), so the
 * Next.js route handlers and the app server can both call it.
 */
export async function handleDeviceIngest<P>(format: DeviceFormat<P>, req: RequestLike): Promise<Response> {
  let headers: Record<string, string> = {};
  let res: Response;
  try {
    await ingestFromDevice(format, req, (h) => (headers = h));
    res = format.ok();
  } catch (err) {
    res = toErrorResponse(err, req);
    if (res.status === 401 && format.challenge) res.headers.set("WWW-Authenticate", format.challenge);
  }
  for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
  res.headers.set("Cache-Control", "no-store");
  return res;
}

/** The work of handleDeviceIngest without the HTTP reply: the locations stored (resends dropped). */
export async function ingestFromDevice<P>(
  format: DeviceFormat<P>,
  req: RequestLike,
  onRateLimit: (headers: Record<string, string>) => void = () => {},
): Promise<Location[]> {
  const { token, payload } = await format.read(req);
  if (!token) throw new ApiError("unauthorized", "Missing device token: see the trackable's \"Connect a device\" panel");
  const db = await getDb();
  const device = await verifyDeviceToken(db, token);
  if (!device) throw new ApiError("unauthorized", "Invalid device token: it is unknown or has been revoked");

  const verdict = await deviceLimiter().limit(`token:${device.tokenId}`);
  const headers = rateLimitHeaders(verdict);
  onRateLimit(headers);
  if (!verdict.success) {
    throw new ApiError(
      "rate_limit_exceeded",
      `Rate limit exceeded: ${verdict.limit} requests per minute per device token. Retry after ${headers["Retry-After"]} s.`,
    );
  }

  const points = format.points(payload);
  if (points.length === 0) return [];
  return ingestLocations({
    ctx: { account: device.account, db },
    trackableId: device.trackableId,
    inputs: points,
    source: { kind: "device", app: format.app, tokenId: device.tokenId },
  });
}
