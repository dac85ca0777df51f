/** An open live stream, as shutdown sees it. */
export interface OpenStream {
  /** Whose stream it is: an API key's id, or `user:<id>` for the dashboard's. */
  keyId: string;
  end(): void;
}

// On globalThis: the app server's bundle and Next.js's each load this module, and shutdown must end them all.
const shared = globalThis as unknown as { __fencelineStreams?: Set<OpenStream> };
export const openStreams = (): Set<OpenStream> => (shared.__fencelineStreams ??= new Set());

/** Ends every open stream (server shutdown): each reply is finished, and its connection closed with it. */
export function endStreams(): void {
  for (const s of [...openStreams()]) s.end();
}
