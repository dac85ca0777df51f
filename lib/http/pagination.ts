import { and, eq, lt, or, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { inTimestampRange } from "@/lib/schemas/common";
import { ApiError } from "./errors";

const ISO_DATE_TIME = /^[+-]?\d{4,6}-\d{2}-\d{2}T/;

// A cursor is decoded from client input: every date-time in it must be one the store can compare against (a forged
// cursor at year 0000 or 10000 would otherwise reach the database and fail there).
const timesInRange = (value: unknown): boolean =>
  typeof value !== "object" || value === null
    ? true
    : Object.values(value).every((v) => typeof v !== "string" || !ISO_DATE_TIME.test(v) || inTimestampRange(new Date(v)));

/** Opaque cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

export function decodeCursor<S extends z.ZodType>(cursor: string, schema: S): z.output<S> {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    if (parsed.success && timesInRange(parsed.data)) return parsed.data;
  } catch {
    // fall through
  }
  throw new ApiError("invalid_request", "Invalid cursor: pass the nextCursor of a previous page unchanged");
}

export const limitParam = (max: number, dflt: number) =>
  z.coerce
    .number({ error: `must be an integer between 1 and ${max}` })
    .int(`must be an integer between 1 and ${max}`)
    .min(1, `must be an integer between 1 and ${max}`)
    .max(max, `must be an integer between 1 and ${max}`)
    .default(dflt)
    .meta({ description: `Page size, 1–${max}`, example: dflt });

export const cursorParam = z.string().min(1).max(512).optional().meta({ description: "Opaque cursor: the nextCursor of the previous page" });

export const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable().meta({ description: "Pass as ?cursor= to get the next page; null on the last page" }),
    })
    .meta({ id });

/** Splits `limit + 1` fetched rows into a page and the next cursor. */
export function paginate<R>(rows: R[], limit: number, keyOf: (row: R) => Record<string, string | number>) {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { page, nextCursor: hasMore && last ? encodeCursor(keyOf(last)) : null };
}

/**
 * The keyset condition of a page ordered newest first by (time, id): the rows after the cursor's row (at, id) in that
 * order, i.e. older, or as old with a smaller id.
 */
export function olderThan(timeColumn: AnyColumn, idColumn: AnyColumn, at: Date, id: string): SQL | undefined {
  return or(lt(timeColumn, at), and(eq(timeColumn, at), lt(idColumn, id)));
}
