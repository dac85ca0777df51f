import { hash } from "node:crypto";
import { log } from "@/lib/log/logger";

/**
 * SHA-256 hex of a presented secret (API key, device token): tables are searched by it, never by the secret. One-shot
 * crypto.hash, a third of the cost of a Hash object, on every authenticated request.
 */
export const sha256Hex = (secret: string): string => hash("sha256", secret, "hex");

// Written at most this often per credential, so a busy one costs one UPDATE a minute, not one per request.
export const LAST_USED_INTERVAL_MS = 60_000;

interface CacheState<V> {
  /** Verified credentials by hash. */
  entries: Map<string, { verified: V; until: number }>;
  /** Bumped by every forget: a look-up that started before a revocation must not cache what it read. */
  generation: number;
  /** When each credential's lastUsedAt was last written. */
  lastTouched: Map<string, number>;
}

/**
 * The in-process memory of verified credentials (API keys, device tokens), so a busy credential costs one look-up
 * per `ttlMs`, not one per request. Unknown credentials are never remembered (random guesses cannot fill memory); the
 * oldest entry goes when full. Kept on globalThis under `name`: Next.js may load a module once per route bundle, and
 * the copy that revokes and the copy that verifies must share one cache.
 */
export class VerifiedCache<V> {
  constructor(
    private readonly name: string,
    private readonly opts: { ttlMs: number; max: number },
  ) {}

  private state(): CacheState<V> {
    const g = globalThis as unknown as Record<string, CacheState<V> | undefined>;
    return (g[`__fenceline_${this.name}`] ??= { entries: new Map(), generation: 0, lastTouched: new Map() });
  }

  /** The remembered verification of `hash`, or null (an expired one is dropped). */
  get(hash: string, now: number): V | null {
    const { entries } = this.state();
    const cached = entries.get(hash);
    if (cached && cached.until > now) return cached.verified;
    entries.delete(hash);
    return null;
  }

  /** Call before the database look-up; pass the result to `set`. */
  generation(): number {
    return this.state().generation;
  }

  /** Remembers a verification, unless something was forgotten since its look-up began. */
  set(hash: string, verified: V, startedAt: number, now: number): void {
    const state = this.state();
    if (startedAt !== state.generation) return;
    if (state.entries.size >= this.opts.max) state.entries.delete(state.entries.keys().next().value!);
    state.entries.set(hash, { verified, until: now + this.opts.ttlMs });
  }

  /** Drops every remembered verification that matches (revocation, plan change). */
  forget(match: (verified: V) => boolean): void {
    const state = this.state();
    state.generation++;
    for (const [hash, entry] of state.entries) if (match(entry.verified)) state.entries.delete(hash);
  }

  /**
   * Records a use with `write(at)` (an UPDATE of lastUsedAt) at most once per LAST_USED_INTERVAL_MS per id, without
   * making the request wait for it; a failed write is logged.
   */
  recordUse(id: string, write: (at: Date) => Promise<unknown>): void {
    const now = Date.now();
    const { lastTouched } = this.state();
    if (now - (lastTouched.get(id) ?? 0) < LAST_USED_INTERVAL_MS) return;
    lastTouched.set(id, now);
    if (lastTouched.size > this.opts.max) {
      for (const [other, at] of lastTouched) if (now - at >= LAST_USED_INTERVAL_MS) lastTouched.delete(other);
    }
    void write(new Date(now)).catch((err: unknown) => log.error(`[${this.name}] could not record lastUsedAt:`, err));
  }
}
