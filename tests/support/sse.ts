import { createParser, type EventSourceMessage } from "eventsource-parser";

/** An open SSE reply read by eventsource-parser: the frames, comments and retry seen so far, and waits on them. */
export interface SseStream {
  status: number;
  headers: Headers;
  /** The JSON error body when the stream was refused. */
  error: any;
  frames: EventSourceMessage[];
  /** When each frame arrived (performance.now()). */
  arrivals: number[];
  comments: string[];
  retry: number | null;
  /** The raw text received, in order (to check what comes first). */
  raw: string;
  /** Whether the reply is over, and whether it was cut (a reset, an abort) rather than finished by the server. */
  ended: boolean;
  aborted: boolean;
  /** Resolves with the frames once at least `n` have come; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<EventSourceMessage[]>;
  /** Resolves once `check()` holds; rejects after `timeoutMs`. */
  until(check: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { Accept: "text/event-stream", ...headers }, signal: abort.signal });
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    error: null,
    frames: [],
    arrivals: [],
    comments: [],
    retry: null,
    raw: "",
    ended: false,
    aborted: false,
    until(check, timeoutMs = 10_000, what = "the condition") {
      return new Promise((resolve, reject) => {
        const test = () => {
          if (!check()) return;
          waiters.delete(test);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`${what} did not happen within ${timeoutMs} ms; frames: ${JSON.stringify(stream.frames.map((f) => f.event))}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
    async waitFor(n, timeoutMs = 10_000) {
      await stream.until(() => stream.frames.length >= n, timeoutMs, `${n} frames`);
      return stream.frames;
    },
    close: () => abort.abort(),
  };
  if (res.status !== 200) {
    stream.error = await res.json().catch(() => null);
    return stream;
  }
  const parser = createParser({
    onEvent: (e) => {
      stream.frames.push(e);
      stream.arrivals.push(performance.now());
      wake();
    },
    onComment: (c) => {
      stream.comments.push(c);
      wake();
    },
    onRetry: (r) => {
      stream.retry = r;
      wake();
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body!) {
        const text = decoder.decode(chunk, { stream: true });
        stream.raw += text;
        parser.feed(text);
      }
    } catch {
      stream.aborted = true;
    }
    stream.ended = true;
    wake();
  })();
  return stream;
}
