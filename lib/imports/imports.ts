import { log } from "@/lib/log/logger";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { and, desc, eq } from "drizzle-orm";
import { exec, type Ctx } from "@/lib/context";
import { imports, type ImportErrorEntry, type ImportRow } from "@/lib/db/schema";
import { mediaType, type RequestLike } from "@/lib/http/body";
import { ApiError, notFound } from "@/lib/http/errors";
import { MAX_BATCH } from "@/lib/locations/schemas";
import { requireTrackable } from "@/lib/trackables/trackables";
import { detectFormat, IMPORT_FORMATS, IMPORT_FORMAT_NAMES, type ImportFormatName } from "./formats";
import { ImportFileError, type ByteSource, type Fix } from "./formats/types";
import { MAX_IMPORT_BYTES, MAX_IMPORT_ERRORS, type Import, type ImportQuery } from "./schemas";
import { storeImportBatch } from "./store";

/** An opened upload: the file's bytes as they arrive, what tells its format, and how to let go of the rest of it. */
interface Upload {
  source: ByteSource;
  filename: string | null;
  mediaType: string | null;
  discard(): void;
}

/**
 * POST …/trackables/{id}/imports: reads a history file from the request (a multipart body's file, or the raw body) as
 * it arrives, through the format's streaming parser, storing the fixes in batches of MAX_BATCH with resends dropped,
 * and recording the progress on the import after each batch (GET shows it while the upload runs). Memory holds one
 * batch, whatever the file's size (up to MAX_IMPORT_BYTES). A bad record is counted, reported (the first
 * MAX_IMPORT_ERRORS) and skipped; a file that cannot be read on ends the import as failed, keeping what was stored.
 * Answers once the file is read, with the import.
 */
export async function startImport({ ctx, trackableId, req, query }: { ctx: Ctx; trackableId: string; req: RequestLike; query: ImportQuery }): Promise<Import> {
  await requireTrackable(ctx, trackableId);
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_IMPORT_BYTES + 64 * 1024) throw tooLarge();
  const upload = await openUpload(req);
  const format = query.format ?? detectFormat(upload.filename, upload.mediaType);
  if (!format) {
    upload.discard();
    throw new ApiError(
      "invalid_request",
      `Cannot tell the file's format from its name or Content-Type: name it with ?format= (${IMPORT_FORMAT_NAMES.join(", ")})`,
    );
  }
  const [row] = await exec(ctx)
    .insert(imports)
    .values({ accountId: ctx.account.id, trackableId, format, evaluate: query.evaluate })
    .returning();
  const done = await runImport(ctx, row!, format, upload);
  return serializeImport(done);
}

/** GET …/trackables/{id}/imports/{importId}: an import of the account's trackable (404 otherwise). */
export async function getImport({ ctx, trackableId, importId }: { ctx: Ctx; trackableId: string; importId: string }): Promise<Import> {
  const [row] = await exec(ctx)
    .select()
    .from(imports)
    .where(and(eq(imports.id, importId), eq(imports.trackableId, trackableId), eq(imports.accountId, ctx.account.id)));
  if (!row) throw notFound("Import", importId);
  return serializeImport(row);
}

/** The trackable's newest import, or null (the dashboard shows its progress while its upload runs). */
export async function latestImport({ ctx, trackableId }: { ctx: Ctx; trackableId: string }): Promise<Import | null> {
  await requireTrackable(ctx, trackableId);
  const [row] = await exec(ctx)
    .select()
    .from(imports)
    .where(and(eq(imports.trackableId, trackableId), eq(imports.accountId, ctx.account.id)))
    .orderBy(desc(imports.id))
    .limit(1);
  return row ? serializeImport(row) : null;
}

async function runImport(ctx: Ctx, row: ImportRow, format: ImportFormatName, upload: Upload): Promise<ImportRow> {
  let processed = 0;
  let stored = 0;
  let flushedProcessed = 0;
  const errors: ImportErrorEntry[] = [];
  let batch: Fix[] = [];
  const progress = async (extra: Partial<ImportRow> = {}) => {
    const [updated] = await exec(ctx)
      .update(imports)
      .set({ processed: flushedProcessed, stored, skipped: flushedProcessed - stored, errors, updatedAt: new Date(), ...extra })
      .where(eq(imports.id, row.id))
      .returning();
    // The trackable (and with it the import) was deleted while the file was read.
    if (!updated) throw notFound("Trackable", row.trackableId);
    return updated;
  };
  const flush = async () => {
    if (batch.length > 0) stored += await storeImportBatch(ctx, row.trackableId, batch, { evaluate: row.evaluate });
    batch = [];
    flushedProcessed = processed;
    await progress();
  };

  try {
    for await (const record of IMPORT_FORMATS[format].parse(upload.source)) {
      processed++;
      if ("error" in record) {
        if (errors.length < MAX_IMPORT_ERRORS) errors.push(record.error);
        continue;
      }
      batch.push(record.fix);
      if (batch.length >= MAX_BATCH) await flush();
    }
    await flush();
    return await progress({ status: "completed", completedAt: new Date() });
  } catch (err) {
    upload.discard();
    // What was parsed before the file broke off is still stored.
    if (err instanceof ImportFileError) {
      await flush().catch(() => {});
      if (errors.length < MAX_IMPORT_ERRORS + 1) errors.push({ ...err.position, message: err.message });
    } else {
      log.error(`[imports] import ${row.id} failed:`, err);
      errors.push({ message: err instanceof ApiError ? err.message : "An internal error stopped the import; what was stored before it stays" });
    }
    flushedProcessed = processed - batch.length;
    return progress({ status: "failed", completedAt: new Date() });
  }
}

const tooLarge = () => new ApiError("payload_too_large", `The file exceeds ${MAX_IMPORT_BYTES} bytes (512 MB)`);

/** The request's file: the first file part of a multipart/form-data body, or else the body itself. */
async function openUpload(req: RequestLike): Promise<Upload> {
  if (!req.body) throw new ApiError("invalid_request", "Request body is required: send the file as the body or as a multipart file field");
  const body = Readable.fromWeb(req.body as NodeReadableStream<Uint8Array>);
  const type = mediaType(req);
  if (type !== "multipart/form-data") {
    return { source: limited(body), filename: null, mediaType: type, discard: () => body.destroy() };
  }
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: { "content-type": req.headers.get("content-type")! }, limits: { files: 1, fileSize: MAX_IMPORT_BYTES + 1, fields: 20 } });
  } catch (err) {
    body.destroy();
    throw new ApiError("invalid_request", `Invalid multipart body: ${(err as Error).message}`);
  }
  const file = new Promise<{ stream: Readable; filename: string; mimeType: string }>((resolve, reject) => {
    bb.on("file", (_field, stream, info) => resolve({ stream, filename: info.filename ?? "", mimeType: info.mimeType }));
    bb.on("error", (err) => reject(new ApiError("invalid_request", `Invalid multipart body: ${(err as Error).message}`)));
    bb.on("close", () => reject(new ApiError("invalid_request", "The multipart body holds no file: send the file in a file field")));
  });
  body.on("error", (err) => bb.destroy(err));
  body.pipe(bb);
  try {
    const { stream, filename, mimeType } = await file;
    const part = mimeType && mimeType !== "application/octet-stream" ? mimeType.split(";")[0]!.trim().toLowerCase() : null;
    return {
      source: limited(stream),
      filename: filename || null,
      mediaType: part,
      discard: () => {
        stream.resume();
        body.destroy();
      },
    };
  } catch (err) {
    body.destroy();
    throw err;
  }
}

/** The bytes, refused once past MAX_IMPORT_BYTES (the import then fails with what was stored kept). */
async function* limited(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let size = 0;
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw new ImportFileError(`the upload broke off after ${size} bytes (${(err as Error).message})`);
    }
    if (next.done) return;
    size += next.value.byteLength;
    if (size > MAX_IMPORT_BYTES) throw new ImportFileError(`the file exceeds ${MAX_IMPORT_BYTES} bytes (512 MB)`);
    yield next.value;
  }
}

export function serializeImport(row: ImportRow): Import {
  return {
    id: row.id,
    trackableId: row.trackableId,
    status: row.status,
    format: row.format as ImportFormatName,
    evaluate: row.evaluate,
    processed: row.processed,
    stored: row.stored,
    skipped: row.skipped,
    errors: row.errors,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}
