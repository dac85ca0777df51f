/**
 * Group commit: work items that arrive while earlier ones are being stored are gathered and stored together, with one
 * statement (and so one commit) for the whole group, as Postgres groups the WAL flushes of concurrent commits. An item
 * that arrives while fewer than `maxInFlight` groups are running starts a group at once (alone, with no added wait);
 * items that arrive while the groups run gather for the next one ("commit while the next group gathers"), so the size
 * of a group follows the load and a lone request pays nothing.
 *
 * Each submitted item is settled exactly once, with its own result: a group of one runs `single`; a larger group runs
 * `group`, which answers one result per item, in order. When the shared run fails (or answers the wrong number of
 * results), every item of the group is run again on its own with `single`, so one item's failure does not fail the
 * others and each gets the error its own run has; the shared run's results are never used in part. `group` must
 * therefore be all-or-nothing (one statement, or one transaction) and `single` safe to run after a failed `group`.
 */
export interface GroupCommitOptions<I, R> {
  /** Stores two or more items at once: all or nothing, a result per item in the items' order. */
  group(items: readonly I[]): Promise<R[]>;
  /** Stores one item: a group of one, and each item of a group whose shared run failed. */
  single(item: I): Promise<R>;
  /** Groups running at the same time (each holds a connection while it runs). Default 1. */
  maxInFlight?: number;
  /** A group takes items while their summed weight stays within this (always at least one item). Default Infinity. */
  maxWeight?: number;
  /** An item's weight (default 1): for a store, its number of rows. */
  weight?(item: I): number;
  /** Told when a group's shared run failed (its items are then run one by one). */
  onGroupError?(err: unknown, size: number): void;
}

interface Waiting<I, R> {
  item: I;
  weight: number;
  resolve(result: R): void;
  reject(err: unknown): void;
}

export class GroupCommit<I, R> {
  private readonly queue: Waiting<I, R>[] = [];
  private head = 0;
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly maxWeight: number;

  constructor(private readonly opts: GroupCommitOptions<I, R>) {
    this.maxInFlight = Math.max(1, opts.maxInFlight ?? 1);
    this.maxWeight = opts.maxWeight ?? Infinity;
  }

  /** Stores `item` with the next group; resolves with its own result once the group (or its own retry) is done. */
  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, weight: this.opts.weight?.(item) ?? 1, resolve, reject });
      this.pump();
    });
  }

  /** Items waiting for a group (not those of the groups running). */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.head < this.queue.length) {
      const batch: Waiting<I, R>[] = [];
      let weight = 0;
      while (this.head < this.queue.length) {
        const next = this.queue[this.head]!;
        if (batch.length > 0 && weight + next.weight > this.maxWeight) break;
        batch.push(next);
        weight += next.weight;
        this.head++;
      }
      if (this.head === this.queue.length) {
        this.queue.length = 0;
        this.head = 0;
      }
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: Waiting<I, R>[]): Promise<void> {
    if (batch.length > 1) {
      let results: R[] | null = null;
      try {
        results = await this.opts.group(batch.map((w) => w.item));
      } catch (err) {
        this.opts.onGroupError?.(err, batch.length);
        results = null;
      }
      if (results && results.length === batch.length) {
        batch.forEach((w, i) => w.resolve(results[i]!));
        return;
      }
    }
    await Promise.all(batch.map((w) => this.runSingle(w)));
  }

  private async runSingle(w: Waiting<I, R>): Promise<void> {
    try {
      w.resolve(await this.opts.single(w.item));
    } catch (err) {
      w.reject(err);
    }
  }
}
