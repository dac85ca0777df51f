import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { ZipFile } from "yazl";
import { env } from "@/lib/config/env";
import { exec, type Ctx } from "@/lib/context";
import { accountExports, type AccountExportRow } from "@/lib/db/schema";
import { notFound } from "@/lib/http/errors";
import { log } from "@/lib/log/logger";
import { EXPORT_LINES } from "./resources";
import { EXPORT_RESOURCES, type AccountExport } from "./schemas";

/** The download's address, under APP_URL (which may carry a path prefix). */
const downloadUrl = (id: string): string => `${env().APP_URL.replace(/\/+$/, "")}/api/v1/account/exports/${id}/download`;

export function serializeExport(row: AccountExportRow): AccountExport {
  const completed = row.completedAt !== null;
  return {
    id: row.id,
    status: completed ? "completed" : "running",
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    downloadUrl: completed ? downloadUrl(row.id) : null,
  };
}

/**
 * POST /account/export: records the request. The zip is built from the database while it is downloaded, so the
 * export is complete at once; nothing is written to disk and a later download holds the data as it is then.
 */
export async function requestExport({ ctx }: { ctx: Ctx }): Promise<AccountExport> {
  const now = new Date();
  const [row] = await exec(ctx).insert(accountExports).values({ accountId: ctx.account.id, createdAt: now, completedAt: now }).returning();
  return serializeExport(row!);
}

async function requireExport(ctx: Ctx, exportId: string): Promise<AccountExportRow> {
  const [row] = await exec(ctx)
    .select()
    .from(accountExports)
    .where(and(eq(accountExports.id, exportId), eq(accountExports.accountId, ctx.account.id)));
  if (!row) throw notFound("Export", exportId);
  return row;
}

/** GET /account/exports/{id}: one of the account's exports (404 for another account's). */
export async function getExport({ ctx, exportId }: { ctx: Ctx; exportId: string }): Promise<AccountExport> {
  return serializeExport(await requireExport(ctx, exportId));
}

/**
 * GET /account/exports/{id}/download: a zip with one `<resource>.jsonl` per resource, written as the client reads
 * it. yazl deflates one entry at a time and asks for an entry's lines only when it reaches it; the lines come from
 * keyset pages, so memory holds about one page whatever the workspace's size.
 */
export async function downloadExport({ ctx, exportId }: { ctx: Ctx; exportId: string }): Promise<Response> {
  const row = await requireExport(ctx, exportId);
  const zip = new ZipFile();
  for (const resource of EXPORT_RESOURCES) {
    zip.addReadStreamLazy(`${resource}.jsonl`, (cb) => cb(null, Readable.from(jsonLines(EXPORT_LINES[resource](ctx)), { objectMode: false })));
  }
  zip.end();
  const output = zip.outputStream as Readable;
  // A failed read cannot become an error status once bytes are sent: the stream is broken off, so the client sees
  // a truncated download rather than a zip that looks whole.
  zip.on("error", (err: unknown) => {
    log.error(`[export] ${row.id} failed:`, err);
    output.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  const day = row.createdAt.toISOString().slice(0, 10);
  return new Response(Readable.toWeb(output) as ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="fenceline-export-${day}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}

/** JSON objects → their lines, a page's worth of text at a time. */
async function* jsonLines(items: AsyncIterable<unknown>): AsyncGenerator<string, void, undefined> {
  let text = "";
  for await (const item of items) {
    text += JSON.stringify(item) + "\n";
    if (text.length >= 64 * 1024) {
      yield text;
      text = "";
    }
  }
  if (text) yield text;
}
