import type { RequestLike } from "@/lib/http/body";
import { prepareStream } from "./serve";
import type { PreparedStream } from "./sse";

/**
 * GET /api/v1/stream as a web Response (the Next.js route, which `next dev` serves; the app server answers it itself
 * through lib/stream/node.ts). What the client has not read stays in the stream's queue, whose size is measured.
 */
export async function streamResponse(like: RequestLike): Promise<Response> {
  const prepared = await prepareStream(like);
  if (prepared instanceof Response) return prepared;
  return sseResponse(prepared);
}

/** A prepared stream as a web Response: it starts when the body is read and finishes when the reader cancels. */
export function sseResponse(prepared: PreparedStream): Response {
  const encoder = new TextEncoder();
  let finish = () => {};
  // Once the reader has cancelled (or the stream was ended), the controller takes nothing more.
  let over = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        finish = prepared.start({
          write(text) {
            if (over) return 0;
            controller.enqueue(encoder.encode(text));
            return -(controller.desiredSize ?? 0);
          },
          end: () => {
            if (over) return;
            over = true;
            controller.close();
          },
          destroy: () => {
            if (over) return;
            over = true;
            controller.error(new Error("the reader fell too far behind"));
          },
        }).finish;
      },
      cancel: () => {
        over = true;
        finish();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  );
  return new Response(body, { status: 200, headers: prepared.headers });
}
