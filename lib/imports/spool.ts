import fs from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/config/env";
import { makePrivate } from "@/lib/config/data-dir";
import { ApiError } from "@/lib/http/errors";
import { IMPORT_FORMATS, type ImportFormatName } from "./formats";
import { ImportFileError, type ByteSource } from "./formats/types";
import { MAX_IMPORT_BYTES } from "./schemas";

/**
 * Uploaded files wait here, under DATA_DIR (the owner's only), while their import is read in the background: the
 * request is answered once the file is on disk, and a server that restarts reads it again from there.
 */
export function spoolDir(): string {
  return path.join(dataDir(), "imports");
}

export const spoolPath = (importId: string) => path.join(spoolDir(), `${importId}.upload`);

/** How many bytes of the file's start are parsed before the upload goes on, to refuse a file not of its format at once. */
const PROBE_BYTES = 64 * 1024;

export const tooLarge = () => new ApiError("payload_too_large", `The file exceeds ${MAX_IMPORT_BYTES} bytes (512 MB)`);

/**
 * Writes the upload to the import's spool file (mode 0600) as it arrives: refused with 413 once past
 * MAX_IMPORT_BYTES, and with 400 when its first bytes show it is not of `format` (see probe). The file is written under
 * a temporary name and renamed when complete, so a spool file is always a whole upload. On any error the partial file
 * is removed and nothing is left behind.
 */
export async function spoolUpload(importId: string, format: ImportFormatName, source: ByteSource): Promise<number> {
  makePrivate(spoolDir());
  await removeAbandonedUploads();
  const final = spoolPath(importId);
  const partial = `${final}.part`;
  const handle = await fs.promises.open(partial, "w", 0o600);
  let size = 0;
  let head: Uint8Array[] | null = [];
  let headBytes = 0;
  try {
    for await (const piece of broken(source)) {
      const chunk = typeof piece === "string" ? Buffer.from(piece) : piece;
      size += chunk.byteLength;
      if (size > MAX_IMPORT_BYTES) throw tooLarge();
      await handle.write(chunk);
      if (head) {
        head.push(chunk);
        headBytes += chunk.byteLength;
        if (headBytes >= PROBE_BYTES) {
          await probe(format, head, false);
          head = null;
        }
      }
    }
    if (head) await probe(format, head, true);
    await handle.sync();
    await handle.close();
    await fs.promises.rename(partial, final);
    return size;
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
}

/** An upload still being written after this long was cut by a server that stopped (requests end within 300 s). */
export const ABANDONED_MS = 60 * 60 * 1000;

/** Removes partial uploads that a stopped server left behind (the request that wrote them is gone with it). */
async function removeAbandonedUploads(): Promise<void> {
  const names = await fs.promises.readdir(spoolDir()).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith(".part"))) {
    const file = path.join(spoolDir(), name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > ABANDONED_MS) await fs.promises.rm(file, { force: true });
  }
}

/** Removes an import's spool file (its import ended, or never started). */
export async function removeSpool(importId: string): Promise<void> {
  await fs.promises.rm(spoolPath(importId), { force: true });
}

/** The spool file's bytes, or null when it is not on this server. */
export function openSpool(importId: string): ByteSource | null {
  const file = spoolPath(importId);
  if (!fs.existsSync(file)) return null;
  return fs.createReadStream(file, { highWaterMark: 256 * 1024 });
}

/**
 * Parses the file's first bytes: a file that breaks off (ImportFileError) before its first record is not of the
 * format at all (HTML sent as GPX, text as JSON) and is refused with 400 while the upload runs. While the probe looks,
 * the head is not followed by an end (unless it is the whole file), so a record cut by the head's end is no error; a
 * file that breaks off after its first record is read by the import, which keeps what came before the break.
 */
async function probe(format: ImportFormatName, head: Uint8Array[], whole: boolean): Promise<void> {
  let reachedEnd = false;
  let decided = false;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  async function* source(): AsyncIterable<Uint8Array> {
    yield Buffer.concat(head);
    reachedEnd = true;
    if (!whole) await held;
  }
  const records = IMPORT_FORMATS[format].parse(source())[Symbol.asyncIterator]();
  const first = records.next().then(
    () => null,
    (error: unknown) => error,
  );
  // The parser asked for more than the head without a verdict: a few turns for what it parses asynchronously.
  const waited = async () => {
    while (!reachedEnd && !decided) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 20 && !decided; i++) await new Promise((r) => setImmediate(r));
    return null;
  };
  try {
    const error = whole ? await first : await Promise.race([first, waited()]);
    if (error instanceof ImportFileError) {
      throw new ApiError("invalid_request", `The file cannot be read as ${IMPORT_FORMATS[format].label}: ${error.message}`);
    }
  } finally {
    decided = true;
    // The parser sees the head's end and stops; what it says about the cut is not the file's.
    release();
  }
}

/** The upload's bytes; a request that breaks off (the client went away) is a 400, not a server error. */
async function* broken(source: ByteSource): AsyncIterable<Uint8Array | string> {
  const iterator = source[Symbol.asyncIterator]();
  let size = 0;
  for (;;) {
    let next: IteratorResult<Uint8Array | string>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw new ApiError("invalid_request", `The upload broke off after ${size} bytes (${(err as Error).message})`);
    }
    if (next.done) return;
    size += next.value.length;
    yield next.value;
  }
}
