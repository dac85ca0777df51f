import type { EventConsumer } from "@/lib/events/consumers";
import { isWatched } from "./watch";

/**
 * Live streams as an event consumer: they want location.updated (which producers build only when asked) for an
 * account with an open stream. Recorded events are always built; the frames go out after the commit (lib/stream/bus.ts),
 * so nothing is done in the recording transaction.
 */
export const streamConsumer: EventConsumer = {
  name: "streams",
  wants: (type, account) => type === "location.updated" && isWatched(account.id),
  consume: async () => 0,
};
