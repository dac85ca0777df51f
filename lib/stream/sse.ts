import { env } from "@/lib/config/env";
import { log } from "@/lib/log/logger";
import { openStreams, type OpenStream } from "./open";
import type { StreamSlot } from "./slots";

// One lifecycle for every Server-Sent Events reply (the public stream and the dashboard's): registered as open (so
// shutdown ends it), `retry` first, a keep-alive comment that also renews the stream's place under its owner's limit,
// a reader that lets 1 MiB pile up dropped, and on any end the place given back and the body's listeners undone.

/** A reader that lets this much pile up unread is disconnected (it resumes with Last-Event-ID). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export const SSE_HEADERS: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-store, no-transform",
  "X-Accel-Buffering": "no",
};

/** Where a stream's text goes: the Node response (the app server) or a web ReadableStream (a Next.js route). */
export interface SseSink {
  /** Writes the text; returns how many bytes are now buffered for the client, unread. */
  write(text: string): number;
  /** Finishes the reply. */
  end(): void;
  /** Drops the connection (a reader too far behind). */
  destroy(): void;
}

/** A stream ready to send: its reply headers, and `start`, which begins writing to the sink until `finish`. */
export interface PreparedStream {
  headers: Record<string, string>;
  start(sink: SseSink): { finish(): void };
}

/** What a stream's body gets: a writer, and ways to end the stream or register what its end undoes. */
export interface SseChannel {
  /** Sends text (nothing once the stream is over). */
  write(text: string): void;
  /** Whether the stream is over: the body stops its work. */
  readonly closed: boolean;
  /** Registers what to undo when the stream ends (an unsubscribe); run at once if it has already ended. */
  onClose(undo: () => void): void;
  /** Ends the stream as failed: logged, and the connection dropped (the client reconnects). */
  fail(err: unknown): void;
  /** Ends the stream cleanly (the client reconnects after `retry`, as whoever it then is). */
  end(): void;
}

/**
 * A stream of `owner` holding `slot` (its place under the owner's limit), registered as open from now on; `body`
 * starts once the reply is written to a sink and sends what the stream carries. `label` names it in the log.
 */
export function openSse({
  owner,
  slot,
  headers,
  label,
  body,
}: {
  owner: string;
  slot: StreamSlot;
  headers: Record<string, string>;
  label: string;
  body: (channel: SseChannel) => void;
}): PreparedStream {
  let closed = false;
  let sink: SseSink | null = null;
  const undo: Array<() => void> = [];
  /** Ends the stream once: its listeners undone, its place given back, then the reply finished or dropped. */
  const close = (how: "end" | "destroy") => {
    if (closed) return;
    closed = true;
    for (const u of undo.splice(0)) u();
    slot.give();
    openStreams().delete(stream);
    if (how === "end") sink?.end();
    else sink?.destroy();
  };
  const stream: OpenStream = { keyId: owner, end: () => close("end") };
  openStreams().add(stream);

  return {
    headers,
    start(out) {
      sink = out;
      const channel: SseChannel = {
        write(text) {
          if (closed) return;
          const buffered = out.write(text);
          if (buffered > MAX_BUFFERED_BYTES) {
            log.warn(`[stream] a reader of ${label} left ${buffered} bytes unread: disconnected`);
            close("destroy");
          }
        },
        get closed() {
          return closed;
        },
        onClose(u) {
          if (closed) u();
          else undo.push(u);
        },
        fail(err) {
          log.error(`[stream] the stream of ${label} failed`, err);
          close("destroy");
        },
        end() {
          close("end");
        },
      };
      channel.write("retry: 2000\n\n");
      const keepalive = setInterval(() => {
        channel.write(": keepalive\n\n");
        if (!closed) slot.renew();
      }, env().STREAM_KEEPALIVE_MS);
      channel.onClose(() => clearInterval(keepalive));
      body(channel);
      return { finish: () => close("end") };
    },
  };
}
