// A body-decoding worker thread's task (lib/http/body-pool.ts): a large API body's JSON text parsed and validated by
// the same code as on the event loop (decodeJsonBody), or a dashboard action's large input validated by the same
// safeParse, so the data, every error message and every zod issue are the same as inline.
import type { z } from "zod";
import { decodeJsonBody } from "./body";
import { ApiError, type ErrorCode } from "./errors";
import { OFF_THREAD_BODIES, type OffThreadBody } from "./off-thread-bodies";

/** An API body as text ("body"), or a dashboard action's input as the value it arrived as ("input", cloned across). */
export type DecodeTask = { kind: "body"; name: OffThreadBody; text: string } | { kind: "input"; name: OffThreadBody; input: unknown };

/**
 * The decoded data, or what is wrong: for a body the 4xx it is (an ApiError does not survive the trip between threads
 * as one), for an input zod's issues (plain objects) for the form's field errors; and the seconds it took in the thread.
 */
export type BodyResult = ({ ok: true; data: unknown } | { ok: false; code: ErrorCode; message: string }) & { seconds: number };
export type InputResult = ({ ok: true; data: unknown } | { ok: false; issues: z.core.$ZodIssue[] }) & { seconds: number };
export type DecodeResult = BodyResult | InputResult;

export default function decodeTask(task: DecodeTask): DecodeResult {
  return task.kind === "input" ? validateInput(task.name, task.input) : decodeBody(task.name, task.text);
}

function validateInput(name: OffThreadBody, input: unknown): InputResult {
  const started = performance.now();
  const parsed = OFF_THREAD_BODIES[name].safeParse(input);
  const seconds = (performance.now() - started) / 1000;
  return parsed.success ? { ok: true, data: parsed.data, seconds } : { ok: false, issues: parsed.error.issues, seconds };
}

function decodeBody(name: OffThreadBody, text: string): BodyResult {
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
