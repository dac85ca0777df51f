import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import os from "node:os";
import pLimit, { type LimitFunction } from "p-limit";
import { env } from "@/lib/config/env";

// scrypt (memory-hard) from node:crypto: N = 2^15, r = 8, p = 1 uses 32 MiB and ~100 ms per hash on one core.
const PARAMS = { N: 1 << 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/** Thrown when more password hashes wait than PASSWORD_HASH_QUEUE allows: the sign-in is refused as busy. */
export class PasswordHashingBusyError extends Error {
  constructor() {
    super("The server is busy signing other people in. Try again in a moment.");
  }
}

// One queue per process: at most PASSWORD_HASH_CONCURRENCY hashes run at once (each holds a libuv thread and a core
// for ~100 ms), so a flood of sign-ins waits its turn instead of starving the API of CPU.
interface HashingState {
  limit: LimitFunction;
  queueMax: number;
  running: number;
  peak: number;
}
const globalForHashing = globalThis as unknown as { __fencelineHashing?: HashingState };
function hashing(): HashingState {
  if (!globalForHashing.__fencelineHashing) {
    const e = env();
    const concurrency = e.PASSWORD_HASH_CONCURRENCY ?? Math.max(1, Math.floor(os.availableParallelism() / 2));
    globalForHashing.__fencelineHashing = { limit: pLimit(concurrency), queueMax: e.PASSWORD_HASH_QUEUE, running: 0, peak: 0 };
  }
  return globalForHashing.__fencelineHashing;
}

/** The hashing queue's state: the cap, how many run and wait now, and the most that ever ran at once. */
export function passwordHashingStats(): { concurrency: number; running: number; queued: number; peak: number } {
  const h = hashing();
  return { concurrency: h.limit.concurrency, running: h.running, queued: h.limit.pendingCount, peak: h.peak };
}

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const h = hashing();
  if (h.limit.pendingCount >= h.queueMax) return Promise.reject(new PasswordHashingBusyError());
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return h.limit(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        h.running++;
        h.peak = Math.max(h.peak, h.running);
        scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (err, key) => {
          h.running--;
          if (err) reject(err);
          else resolve(key);
        });
      }),
  );
}

/** "scrypt$N$r$p$<salt b64url>$<hash b64url>": the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Constant-time check of a password against a stored hash; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, "base64url");
  const actual = await derive(password, Buffer.from(parts[4]!, "base64url"), { N, r, p });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// Compared against when the email is unknown, so an unknown address costs the same time as a wrong password.
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(12).toString("base64url")));
