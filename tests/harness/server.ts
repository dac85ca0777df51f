import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readEmbeddedLock } from "@/lib/db/embedded-lock";
import { adminSocketPath } from "@/lib/http/admin-socket";
import { serverArgs } from "@/scripts/build";
import { scratchPostgres } from "../support/scratch-db";

// When DATABASE_URL is set, each test server gets a database of its own on that Postgres (created here, dropped on
// stop), so runs never see each other's rows or an older schema.

export interface TestServer {
  baseUrl: string;
  adminToken: string;
  /** The operator endpoint's Unix socket (the TCP port does not serve it). */
  adminSocket: string;
  dataDir: string;
  databaseUrl: string | null;
  process: ChildProcess;
  /** Stops the server and removes what it created (its data directory, its Postgres database). */
  stop(): Promise<void>;
  /** kill -9: the process dies at once and leaves its data behind (for restart tests). */
  kill(): Promise<void>;
  logs(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}


/** The environment the built app is started with, on `port`, with its data in `dataDir` and, if given, on that Postgres database. */
export function serverEnv(port: number, dataDir: string, databaseUrl: string | null): Record<string, string> {
  return {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl ?? "",
    // On a shared Redis each server counts alone (tests of per-address limits all come from 127.0.0.1).
    RATE_LIMIT_KEY_PREFIX: `fenceline-test-${path.basename(dataDir)}:rl`,
  };
}

/**
 * Waits until the server at `baseUrl` answers its health check. `ended` says why its process is gone (null while it
 * runs): a server that died is reported at once, with its output, rather than at the time-out.
 */
export async function waitForHealth(
  baseUrl: string,
  opts: { name: string; ended: () => string | null; output: () => string; timeoutMs?: number },
): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ended = opts.ended();
    if (ended) throw new Error(`${opts.name} ${ended}:\n${opts.output()}`);
    if (await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${opts.name} did not become healthy in ${timeoutMs / 1000} s:\n${opts.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts the built app (scripts/serve.ts, the server `npm start` runs) on a free port with its own data directory and, on Postgres, its own database. */
export async function startServer(
  opts: {
    env?: Record<string, string>;
    dataDir?: string;
    databaseUrl?: string;
    nodeArgs?: string[];
    umask?: string;
    /** Another checkout's built app to serve (its bundle, its .next, its migrations; a bench's before/after), not this one's. */
    appDir?: string;
  } = {},
): Promise<TestServer> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-test-"));
  const tokenFile = path.join(dataDir, "admin-token");
  if (!fs.existsSync(tokenFile)) fs.writeFileSync(tokenFile, randomBytes(24).toString("base64url"), { mode: 0o600 });
  const adminToken = fs.readFileSync(tokenFile, "utf8").trim();
  const pg = opts.databaseUrl
    ? { url: opts.databaseUrl, drop: async () => {} }
    : process.env.DATABASE_URL
      ? await scratchPostgres(process.env.DATABASE_URL)
      : null;

  let output = "";
  const nodeArgs = opts.appDir ? [...serverArgs(opts.nodeArgs).slice(0, -1), path.join(opts.appDir, ".next", "fenceline", "serve.mjs")] : serverArgs(opts.nodeArgs);
  // With a umask, through the shell that sets it and then execs node (the same process, as under `npm start`).
  const [command, args]: [string, string[]] = opts.umask
    ? ["/bin/sh", ["-c", `umask ${opts.umask} && exec "$0" "$@"`, process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd: opts.appDir,
    env: { ...process.env, ...serverEnv(port, dataDir, pg?.url ?? null), ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, {
      name: "test server",
      ended: () => (child.exitCode !== null ? `exited (${child.exitCode})` : null),
      output: () => output,
    });
  } catch (err) {
    // A server that never served leaves nothing behind either: its process, its data directory, its database.
    child.kill("SIGKILL");
    await pg?.drop().catch(() => {});
    if (!opts.dataDir) await removeDataDir(dataDir);
    throw err;
  }

  return {
    baseUrl,
    adminToken,
    adminSocket: adminSocketPath(dataDir),
    dataDir,
    databaseUrl: pg?.url ?? null,
    process: child,
    logs: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await exited;
      }
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await pg?.drop().catch(() => {});
      if (!opts.dataDir) await removeDataDir(dataDir);
    },
  };
}

/**
 * Removes a test's data directory. An embedded database's process may still be closing (its app was killed, or
 * stopped before it was done): the directory goes once that process has (a checkpoint written meanwhile made the
 * removal fail).
 */
export async function removeDataDir(dataDir: string): Promise<void> {
  const until = Date.now() + 20_000;
  for (;;) {
    const holder = readEmbeddedLock(dataDir);
    if (!holder || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
