// The embedded database's own process: PGlite (with cube and earthdistance) on DATA_DIR/db, served over the Postgres
// wire protocol on a Unix socket by @electric-sql/pglite-socket. PGlite's work (WebAssembly, synchronous) then never
// runs on the app server's event loop, and the app talks to it with the driver it uses for Postgres (postgres.js).
//
// Started by lib/db/client.ts with an IPC channel. It takes the data directory's lock itself (it is the process that
// opens the files), answers { type: "ready", socket } or { type: "busy", holder }, and closes PGlite cleanly when the
// channel closes: the app exited, crashed or was killed with kill -9 (then this process finishes closing on its own,
// still holding the lock, so a server started at once waits for it instead of opening the files twice).
import { spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import path from "node:path";
import { makePrivate, PRIVATE_UMASK } from "@/lib/config/data-dir";
import { acquireEmbeddedLock, EmbeddedDatabaseBusyError, ownerGone, readEmbeddedLock, type LockRole } from "./embedded-lock";
import { log } from "@/lib/log/logger";

// Postgres's files (the WAL holds every secret stored) are the owner's only, whoever started this process and with
// what umask. PGlite's file layer (Emscripten's NODEFS) chmods each file it creates to the mode asked for (0666),
// which the umask does not touch: its chmods are masked here, before PGlite is loaded.
process.umask(PRIVATE_UMASK);
const chmodSync = fs.chmodSync;
fs.chmodSync = (file, mode) => chmodSync(file, (typeof mode === "number" ? mode : parseInt(mode, 8)) & ~PRIVATE_UMASK);
syncBuiltinESMExports();

const dir = process.env.FENCELINE_EMBEDDED_DIR!;
const role = (process.env.FENCELINE_EMBEDDED_ROLE ?? "server") as LockRole;
const socketPath = process.env.FENCELINE_EMBEDDED_SOCKET!;
const ownerPid = process.ppid;

const send = (message: unknown) => new Promise<void>((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The lock, waiting (up to 30 s) for an earlier database process whose app is gone and which is still closing. */
async function lock(): Promise<() => void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return acquireEmbeddedLock(dir, role, { ownerPid });
    } catch (err) {
      if (!(err instanceof EmbeddedDatabaseBusyError)) throw err;
      // Gone meanwhile: try again; else wait only for a holder whose app is gone (it is closing).
      const holder = readEmbeddedLock(dir);
      if (holder && (!ownerGone(holder) || Date.now() > deadline)) throw err;
      await sleep(100);
    }
  }
}

/**
 * The replies to one batch of pipelined statements go out in one write, not one per message: the socket server writes
 * every piece of PGlite's output as it comes (ParseComplete, BindComplete, each statement's rows…), which made the
 * app's process wake up and read once per piece. The socket is corked at a batch's first write and uncorked when the
 * batch is done (the check phase after it: PGlite runs the batch's messages one after another without yielding to
 * the event loop), so the pieces leave together, in order. Measured side by side (bench/README.md): CPU
 * per event on the embedded database 13.95 / 12.62 → 12.18 / 9.82 ms. Reaches into the package's net.Server (a
 * private field): if a version has none, it says so and replies go out piece by piece, as before.
 */
function coalesceReplies(socketServer: object): void {
  const netServer = (socketServer as { server?: unknown }).server;
  if (!(netServer instanceof net.Server)) {
    log.warn("[fenceline] the embedded database's socket server has no net.Server to coalesce replies on");
    return;
  }
  netServer.prependListener("connection", (socket: net.Socket) => {
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    let corked = false;
    socket.write = ((...args: unknown[]) => {
      if (!corked) {
        corked = true;
        socket.cork();
        setImmediate(() => {
          corked = false;
          socket.uncork();
        });
      }
      return write(...args);
    }) as typeof socket.write;
  });
}

/** PGlite on `dataDir` (made there first when it is not a data directory yet), with the extensions the app uses. */
async function openDatabase(dataDir: string) {
  const { PGlite } = await import("@electric-sql/pglite");
  const { cube } = await import("@electric-sql/pglite/contrib/cube");
  const { earthdistance } = await import("@electric-sql/pglite/contrib/earthdistance");
  return PGlite.create(dataDir, {
    extensions: { cube, earthdistance },
    // 32 MB of shared buffers, not Postgres's 128 MB: the files are in the OS's page cache anyway, and PGlite's
    // WebAssembly memory never shrinks. Measured: ~110 MB less resident for this process, CPU per event unchanged
    // (bench/README.md).
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"],
  });
}

/**
 * Makes the data directory in a child process (this script again, in its init mode), which exits once it is made. It
 * is made beside DATA_DIR/db and renamed to it when complete, so a start that was stopped half-way leaves no
 * half-made data directory. The caller holds the directory's lock. The child compiles with V8's default tiers: its
 * memory does not last, and the optimizing compiler alone took ~3 s more to start it.
 */
async function initialiseInOwnProcess(): Promise<void> {
  const target = path.join(dir, "db");
  const scratch = path.join(dir, "db.initialising");
  fs.rmSync(scratch, { recursive: true, force: true });
  const flags = process.execArgv.filter((flag) => flag !== "--no-liftoff");
  const child = spawn(process.execPath, [...flags, process.argv[1]!], {
    env: { ...process.env, FENCELINE_EMBEDDED_INIT: scratch },
    // The IPC channel closes when this process goes: the child then stops too.
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  if (code !== 0) throw new Error(`making the data directory failed (${signal ?? `exit ${code}`})`);
  // An empty directory in its place (made by hand, or by a version that made it before initdb) gives way; one with
  // files in it is not a data directory to replace, and the rename fails with ENOTEMPTY.
  if (fs.existsSync(target) && fs.readdirSync(target).length === 0) fs.rmdirSync(target);
  fs.renameSync(scratch, target);
}

async function main() {
  let release: () => void;
  try {
    release = await lock();
  } catch (err) {
    if (err instanceof EmbeddedDatabaseBusyError) {
      await send({ type: "busy", holder: err.holder });
      process.exit(3);
    }
    throw err;
  }
  // An existing install's files, made before they were kept private or under a looser umask.
  makePrivate(dir);
  // A new data directory is made (initdb) by a process of its own: initdb runs in a WebAssembly instance of its own,
  // whose compile and heap memory stayed resident in this process after it was done (~50 MB, measured).
  if (!fs.existsSync(path.join(dir, "db", "PG_VERSION"))) await initialiseInOwnProcess();
  const db = await openDatabase(path.join(dir, "db"));
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  // A socket file left by a database process that was killed: ours now (we hold the lock).
  fs.rmSync(socketPath, { force: true });
  // One connection: PGlite runs one query at a time, and the package's multiplexer interleaves the extended
  // protocol's messages of several clients (a Parse of one between the Bind and Execute of another).
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
  coalesceReplies(server);
  fs.chmodSync(socketPath, 0o600);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await server.stop().catch(() => {});
      await db.close().catch((err: unknown) => log.error("[fenceline] closing the embedded database:", err));
      fs.rmSync(socketPath, { force: true });
      // A socket outside the data directory (a long DATA_DIR) sits in a temp directory of its own: gone with it.
      const socketDir = path.dirname(socketPath);
      if (socketDir !== dir && path.basename(socketDir).startsWith("fenceline-db-")) fs.rmSync(socketDir, { recursive: true, force: true });
      release();
      process.exit(0);
    })());
  // The app is gone (exit, crash, kill -9) or closes the database: close PGlite cleanly. Gone already (while this
  // process started, before the handler was there): closed at once.
  process.on("disconnect", () => void close());
  if (!process.connected) void close();
  process.on("message", (m: { type?: string }) => {
    if (m?.type === "close") void close();
  });
  // A signal to the whole process group (Ctrl-C, a service manager's stop) also reaches the app, which drains its
  // requests first: the database stays open for them until the app goes (at most 15 s).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => setTimeout(() => void close(), 15_000).unref());
  }
  await send({ type: "ready", socket: socketPath });
}

/** Init mode (initialiseInOwnProcess): make the data directory `dataDir`, close it, exit. */
async function initialise(dataDir: string) {
  process.on("disconnect", () => process.exit(1));
  const db = await openDatabase(dataDir);
  await db.close();
}

const initialising = process.env.FENCELINE_EMBEDDED_INIT;
if (initialising) {
  initialise(initialising).then(
    () => process.exit(0),
    (err: unknown) => {
      log.error("[fenceline] making the embedded database's data directory failed:", err);
      process.exit(1);
    },
  );
} else {
  main().catch(async (err: unknown) => {
    log.error("[fenceline] the embedded database could not start:", err);
    await send({ type: "error", message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
}
