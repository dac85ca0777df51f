// The soak's event-stream clients, in a process of their own (forked by bench/soak.ts): a thousand SSE connections
// parse every frame the server fans out, and in the soak's own process that work held up its event loop, so posts
// answered meanwhile were timed late. Here they have a loop of their own, as real clients would.
//
// Opens STREAM_COUNT streams to STREAM_URL (fifty at a time, as browsers coming back after a restart would) and
// reports to the parent over IPC: { open, errors } whenever those change, and each frame's fix time with the wall-clock
// time it arrived (performance.timeOrigin + performance.now(), the same clock the parent times the posts with), in
// batches every 100 ms. The parent's end closes them all and ends the process.
import { createParser } from "eventsource-parser";

type Frame = { ts: string; at: number };
export type StreamsMessage = { kind: "count"; open: number; errors: number } | { kind: "frames"; frames: Frame[] };

const url = process.env.STREAM_URL!;
const key = process.env.STREAM_KEY!;
const count = Number(process.env.STREAM_COUNT);
const send = (m: StreamsMessage) => process.send!(m);
const wallNow = () => performance.timeOrigin + performance.now();

const controllers: AbortController[] = [];
let open = 0;
let errors = 0;
let pending: Frame[] = [];
const counted = () => send({ kind: "count", open, errors });

async function openStream() {
  const ac = new AbortController();
  controllers.push(ac);
  let opened = false;
  try {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` }, signal: ac.signal });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    open++;
    opened = true;
    counted();
    const parser = createParser({
      onEvent: (e) => {
        const ts = (JSON.parse(e.data) as { location?: { timestamp?: string } }).location?.timestamp;
        if (ts) pending.push({ ts, at: wallNow() });
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch {
    if (!ac.signal.aborted) errors++;
  } finally {
    // Only a stream that opened counts down: a refused one never counted up.
    if (opened && !ac.signal.aborted) open--;
    if (!ac.signal.aborted) counted();
  }
}

const flush = setInterval(() => {
  if (pending.length === 0) return;
  send({ kind: "frames", frames: pending });
  pending = [];
}, 100);

const stop = () => {
  clearInterval(flush);
  for (const ac of controllers) ac.abort();
  process.exit(0);
};
// The soak ended (its IPC channel closed, however it ended): the open streams and the timer would keep this one.
process.on("disconnect", stop);

for (let i = 0; i < count; i++) {
  void openStream();
  if (i % 50 === 49) await new Promise((r) => setTimeout(r, 50));
}
