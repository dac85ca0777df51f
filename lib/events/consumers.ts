import type { AccountRef } from "@/lib/context";
import type { Tx } from "@/lib/db/client";
import { notificationConsumer } from "@/lib/notifications/consumer";
import { streamConsumer } from "@/lib/stream/consumer";
import { webhookConsumer } from "@/lib/webhooks/consumer";
import type { Prefetched, RecordedEvent } from "./produced";

/** What reacts to events inside the transaction that records them. */
export interface EventConsumer {
  name: string;
  /** Whether it would act on an event of this type of the account (a producer skips building unwanted unrecorded events). */
  wants(type: string, account: AccountRef, prefetched: Prefetched): boolean;
  /** In the recording transaction, after the events' insert: returns how much work it started. */
  consume(tx: Tx, account: AccountRef, events: readonly RecordedEvent[], prefetched: Prefetched): Promise<number>;
  /** After the commit, when consume started something. */
  committed?(started: number): void;
}

/** The consumers, each listed once. */
export const CONSUMERS: readonly EventConsumer[] = [webhookConsumer, notificationConsumer, streamConsumer];
