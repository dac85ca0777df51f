export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix milliseconds at which the current window ends. */
  reset: number;
}

export interface Limiter {
  limit(identifier: string): Promise<RateLimitResult>;
  /** The verdict `limit` would give now, without counting a request (success: a request would still pass). */
  peek(identifier: string): Promise<RateLimitResult>;
  /** Releases the store's connection (tests, shutdown); the in-process limiter holds none. */
  close?(): Promise<void>;
}
