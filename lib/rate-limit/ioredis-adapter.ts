import { createHash } from "node:crypto";
import type { Redis as IORedis } from "ioredis";

/**
 * Lets @upstash/ratelimit run on a plain Redis server. The library calls only evalsha(sha, keys, args) and, on
 * NOSCRIPT, eval(script, keys, args). Its scripts start with "#!lua flags=allow-key-locking", a shebang that Redis
 * rejects, so the adapter loads each script without that line and maps the original script's sha1 to the loaded one.
 */
export class IORedisAdapter {
  private readonly shas = new Map<string, string>();

  constructor(private readonly client: IORedis) {}

  async evalsha<TArgs extends unknown[], TData = unknown>(sha: string, keys: string[], args: TArgs): Promise<TData> {
    const loaded = this.shas.get(sha);
    if (!loaded) throw new Error("NOSCRIPT No matching script (not loaded through this adapter yet)");
    return (await this.client.evalsha(loaded, keys.length, ...keys, ...args.map(String))) as TData;
  }

  async eval<TArgs extends unknown[], TData = unknown>(script: string, keys: string[], args: TArgs): Promise<TData> {
    const original = createHash("sha1").update(script).digest("hex");
    const body = script.startsWith("#!") ? script.slice(script.indexOf("\n") + 1) : script;
    const loaded = (await this.client.script("LOAD", body)) as string;
    this.shas.set(original, loaded);
    return (await this.client.evalsha(loaded, keys.length, ...keys, ...args.map(String))) as TData;
  }

  // Part of the interface @upstash/ratelimit types against; the single-region limiters used here never call them.
  async get<TData>(key: string): Promise<TData | null> {
    return (await this.client.get(key)) as TData | null;
  }

  async set(key: string, value: string): Promise<"OK" | null> {
    return (await this.client.set(key, value)) as "OK" | null;
  }
}
