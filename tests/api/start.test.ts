import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { procState } from "@/lib/db/embedded-lock";
import { SERVER_NODE_FLAGS, serverBundleDir } from "@/scripts/build";
import { freePort, removeDataDir } from "../harness/server";

// `npm start` prepares (migrates, builds) in a process that exits, then execs the server in its shell's place: npm's
// one child is the server, and the signals npm forwards (a service manager's stop, Ctrl-C) reach it directly.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fenceline-start-"));
// npm starts in a process group of its own: whatever of it is left after a failure is killed with it.
const started: number[] = [];
afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await removeDataDir(dataDir);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The processes whose parent is `pid`, with their command lines. */
function childrenOf(pid: number): { pid: number; argv: string[] }[] {
  const children: { pid: number; argv: string[] }[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== pid) continue;
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").filter(Boolean);
      children.push({ pid: Number(entry), argv });
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

it("the start script execs the server with the flags the harness uses", () => {
  const { scripts } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  const serve = path.relative(process.cwd(), path.join(serverBundleDir, "serve.mjs"));
  expect(scripts.start).toBe(`tsx scripts/start.ts && exec node ${SERVER_NODE_FLAGS.join(" ")} ${serve}`);
});

it.skipIf(!fs.existsSync("/proc/self/stat"))(
  "npm start leaves no wrapper beside the server; SIGTERM and SIGINT sent to npm close it cleanly",
  async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const port = await freePort();
      const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, APP_URL: `http://127.0.0.1:${port}`, DATABASE_URL: "" };
      // As a user's shell runs it: without the NODE_ENV vitest sets (exec: npm keeps this pid).
      const npm = spawn("sh", ["-c", "unset NODE_ENV && exec npm start"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      started.push(npm.pid!);
      let output = "";
      npm.stdout!.on("data", (d: Buffer) => (output += d.toString()));
      npm.stderr!.on("data", (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((r) => npm.once("exit", (code) => r(code)));
      const deadline = Date.now() + 120_000;
      while (!(await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false))) {
        if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not serve:\n${output}`);
        await sleep(200);
      }

      const [server, ...others] = childrenOf(npm.pid!);
      expect(others, JSON.stringify(others)).toEqual([]);
      expect(server!.argv.slice(1)).toEqual([...SERVER_NODE_FLAGS, ".next/fenceline/serve.mjs"]);
      const database = childrenOf(server!.pid);
      expect(database.map((c) => path.basename(c.argv.at(-1)!))).toEqual(["embedded-server.mjs"]);

      npm.kill(signal);
      expect(await exited, output).toBe(0);
      expect(output).toContain(`[fenceline] ${signal}: closing`);
      // The database process closed PGlite and released the lock before it exited.
      const until = Date.now() + 20_000;
      while (procState(database[0]!.pid)?.state === "running" && Date.now() < until) await sleep(50);
      expect(procState(database[0]!.pid)?.state).not.toBe("running");
      expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
    }
  },
  300_000,
);
