import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestLike } from "@/lib/http/body";
import { prepareStream } from "./serve";

/**
 * GET /api/v1/stream as the app server answers it: the SSE reply written straight to the socket (never gzipped or
 * held by a framework), and how much is buffered for the client read from the response itself.
 */
export async function serveStream(req: IncomingMessage, res: ServerResponse, like: RequestLike): Promise<void> {
  const prepared = await prepareStream(like);
  if (prepared instanceof Response) {
    res.statusCode = prepared.status;
    prepared.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(Buffer.from(await prepared.arrayBuffer()));
    return;
  }
  // The reply ends with the stream (or the server): the connection goes with it.
  res.writeHead(200, { ...prepared.headers, Connection: "close" });
  res.flushHeaders();
  const session = prepared.start({
    write: (text) => {
      res.write(text);
      return res.writableLength;
    },
    end: () => {
      if (!res.destroyed) res.end();
    },
    destroy: () => res.destroy(),
  });
  res.on("close", session.finish);
  if (res.destroyed) session.finish();
}
