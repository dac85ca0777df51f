import { z } from "zod";
import { ApiError, notFound } from "./errors";

const uuid = z.uuid();

/**
 * A path id: blank → 400 "Missing required parameter: <name>"; not a UUID → 404 (it cannot name an object);
 * otherwise the id, for the verb to look up within the tenant.
 */
export function pathId(params: Record<string, string | string[] | undefined>, name: string, resource: string): string {
  const raw = params[name];
  const value = typeof raw === "string" ? decodeURIComponentSafe(raw).trim() : "";
  if (!value) throw new ApiError("invalid_request", `Missing required parameter: ${name}`);
  if (!uuid.safeParse(value).success) throw notFound(resource, value);
  return value.toLowerCase();
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
