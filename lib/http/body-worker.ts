// A body-decoding worker thread's task (lib/http/body-pool.ts): one large body parsed and validated against its schema
// by the same code as on the event loop (decodeJsonBody), so the data and every error message are the same.
import { decodeJsonBody } from "./body";
import { ApiError, type ErrorCode } from "./errors";
import { OFF_THREAD_BODIES, type OffThreadBody } from "./off-thread-bodies";

export interface DecodeTask {
  name: OffThreadBody;
  text: string;
}

/**
 * The decoded body, or the 4xx it is (an ApiError does not survive the trip between threads as one), and the seconds
 * its decoding took in the thread.
 */
export type DecodeResult = ({ ok: true; data: unknown } | { ok: false; code: ErrorCode; message: string }) & { seconds: number };

export default function decodeTask({ name, text }: DecodeTask): DecodeResult {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const data = decodeJsonBody(text, OFF_THREAD_BODIES[name]);
    return { ok: true, data, seconds: seconds() };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, code: err.code, message: err.message, seconds: seconds() };
    throw err;
  }
}
