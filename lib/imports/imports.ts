import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { and, desc, eq } from "drizzle-orm";
import { exec, withTransaction, type Ctx } from "@/lib/context";
import { getDb, type Executor } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { accounts, imports, type ImportErrorEntry, type ImportRow } from "@/lib/db/schema";
import { enqueue, wakeRunner } from "@/lib/jobs/client";
import { mediaType, type RequestLike } from "@/lib/http/body";
import { ApiError, notFound } from "@/lib/http/errors";
import { MAX_BATCH } from "@/lib/locations/schemas";
import { requireTrackable } from "@/lib/trackables/trackables";
import { detectFormat, IMPORT_FORMATS, IMPORT_FORMAT_NAMES, type ImportFormatName } from "./formats";
import { ImportFileError, type ByteSource, type Fix } from "./formats/types";
import { MAX_IMPORT_BYTES, MAX_IMPORT_ERRORS, type Import, type ImportQuery } from "./schemas";
import { openSpool, removeSpool, spoolUpload, tooLarge } from "./spool";
import { storeImportBatch } from "./store";
import { readImportFile } from "@/lib/jobs/workflows/read-import";

/** An opened upload: the file's bytes as they arrive, what tells its format, and how to let go of the rest of it. */
interface Upload {
  source: ByteSource;
  filename: string | null;
  mediaType: string | null;
  discard(): void;
}

/**
 * POST …/trackables/{id}/imports: streams the history file from the request (a multipart body's file, or the raw body)
 * to a spool file under DATA_DIR, refusing it with 413 past MAX_IMPORT_BYTES and with 400 when its format cannot be
 * told or its first bytes are not of that format; then records the import as running, queues its reading
 * (the read-import workflow: see readImport) and answers at once with the import. GET shows its progress.
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
  const id = newId();
  try {
    await spoolUpload(id, format, upload.source);
  } catch (err) {
    upload.discard();
    throw err;
  }
  try {
    const row = await withTransaction(ctx, async (txCtx) => {
      const [inserted] = await exec(txCtx)
        .insert(imports)
        .values({ id, accountId: ctx.account.id, trackableId, format, evaluate: query.evaluate })
        .returning();
      await enqueue(readImportFile, { importId: id }, { executor: txCtx.tx, eventId: `import-${id}` });
      return inserted!;
    });
    wakeRunner(readImportFile.name);
    return serializeImport(row);
  } catch (err) {
    await removeSpool(id);
    throw err;
  }
}

/**
 * How long one step of the reading runs before the next step takes over (a step is one request on Inngest). Each
 * step parses the file again from its start to pass over what was read: long steps keep that cost small (a 500 MB
 * file takes one or two); the embedded runner renews a step's lease for as long as it runs.
 */
const READ_STEP_MS = 15 * 60_000;

/**
 * Reads an import's spool file into its trackable's locations, for READ_STEP_MS at most (true when the import has
 * ended): the fixes are stored in batches of MAX_BATCH with resends dropped, and the progress is written to the import
 * with each batch, in one transaction. A bad record is counted, reported (the first MAX_IMPORT_ERRORS) and skipped; a
 * file that cannot be read on ends the import as failed, keeping what was stored; another error (the database) throws,
 * for the workflow to try the step again. The reading starts at the file's start every time, and
 * passes over the records the import has already counted (all stored): a step that follows another, or one run again
 * after a server stopped mid-read, goes on where the last progress was written. When the spool file is not on this
 * server (another server received it and stopped), the import ends as failed, saying so. The spool file is removed
 * when the import ends.
 */
export async function readImport(importId: string, opts: { stepMs?: number } = {}): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ imp: imports, plan: accounts.plan })
    .from(imports)
    .innerJoin(accounts, eq(accounts.id, imports.accountId))
    .where(eq(imports.id, importId));
  if (!row || row.imp.status !== "running") {
    await removeSpool(importId);
    return true;
  }
  const ctx: Ctx = { account: { id: row.imp.accountId, plan: row.plan }, db };
  const source = openSpool(importId);
  if (!source) {
    await finishImport(db, row.imp, {
      status: "failed",
      errors: [...row.imp.errors, { message: "The server stopped before the file was read to its end, and the uploaded file is gone: upload it again (what was stored stays)" }],
    });
    return true;
  }
  const ended = await runImport(ctx, row.imp, source, Date.now() + (opts.stepMs ?? READ_STEP_MS));
  if (ended) await removeSpool(importId);
  return ended;
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

/** Ends a running import as failed with `message` (its run is over without ending it), removing its spool file. */
export async function failImport(importId: string, message: string): Promise<void> {
  const db = await getDb();
  const [row] = await db.select().from(imports).where(eq(imports.id, importId));
  if (row) await finishImport(db, row, { status: "failed", errors: [...row.errors, { message }] });
  await removeSpool(importId);
}

async function finishImport(db: Executor, row: ImportRow, set: Partial<ImportRow>): Promise<void> {
  await db
    .update(imports)
    .set({ ...set, updatedAt: new Date(), completedAt: new Date() })
    .where(and(eq(imports.id, row.id), eq(imports.status, "running")));
}

/** Reads on from the import's progress until the file ends (true) or `until` (false: the next step goes on). */
async function runImport(ctx: Ctx, row: ImportRow, source: ByteSource, until: number): Promise<boolean> {
  // What the import counted before (an earlier step, or a run that stopped): stored, passed over on this read.
  const already = row.processed;
  let processed = 0;
  let stored = row.stored;
  let flushedProcessed = already;
  const errors: ImportErrorEntry[] = [...row.errors];
  let batch: Fix[] = [];
  const write = async (on: Ctx, counts: { processed: number; stored: number }, extra: Partial<ImportRow> = {}) => {
    const [updated] = await exec(on)
      .update(imports)
      .set({ ...counts, skipped: counts.processed - counts.stored, errors, updatedAt: new Date(), ...extra })
      .where(eq(imports.id, row.id))
      .returning();
    // The trackable (and with it the import) was deleted while the file was read.
    if (!updated) throw notFound("Trackable", row.trackableId);
  };
  const progress = (extra: Partial<ImportRow> = {}) => write(ctx, { processed: flushedProcessed, stored }, extra);
  // A batch and the progress that counts it commit together: a run that reads on after a stop passes over exactly
  // the records that were stored, and counts each stored location once.
  const flush = async () => {
    const counted = processed;
    const added = await withTransaction(ctx, async (txCtx) => {
      const n = batch.length > 0 ? await storeImportBatch(txCtx, row.trackableId, batch, { evaluate: row.evaluate }) : 0;
      await write(txCtx, { processed: counted, stored: stored + n });
      return n;
    });
    stored += added;
    flushedProcessed = counted;
    batch = [];
  };

  try {
    for await (const record of IMPORT_FORMATS[row.format as ImportFormatName].parse(source)) {
      processed++;
      if (processed <= already) continue;
      if ("error" in record) {
        if (errors.length < MAX_IMPORT_ERRORS) errors.push(record.error);
        continue;
      }
      batch.push(record.fix);
      if (batch.length >= MAX_BATCH) {
        await flush();
        if (Date.now() >= until) return false;
      }
    }
    await flush();
    await progress({ status: "completed", completedAt: new Date() });
    return true;
  } catch (err) {
    // Not the file's fault nor the request's (the database went away): the step is tried again by its workflow, and
    // reads on from the progress committed so far; its last try that fails ends the import (see read-import).
    if (!(err instanceof ImportFileError) && !(err instanceof ApiError)) throw err;
    // What was parsed before the file broke off is still stored.
    if (err instanceof ImportFileError) {
      await flush().catch(() => {});
      if (errors.length < MAX_IMPORT_ERRORS + 1) errors.push({ ...err.position, message: err.message });
    } else {
      errors.push({ message: err.message });
    }
    flushedProcessed = Math.max(already, processed - batch.length);
    await progress({ status: "failed", completedAt: new Date() });
    return true;
  }
}

/** The request's file: the first file part of a multipart/form-data body, or else the body itself. */
async function openUpload(req: RequestLike): Promise<Upload> {
  if (!req.body) throw new ApiError("invalid_request", "Request body is required: send the file as the body or as a multipart file field");
  const body = Readable.fromWeb(req.body as NodeReadableStream<Uint8Array>);
  const type = mediaType(req);
  if (type !== "multipart/form-data") {
    return { source: body, filename: null, mediaType: type, discard: () => body.destroy() };
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
      source: stream,
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
