import { describe, expect, it } from "vitest";
import { oneAtATime } from "./one-at-a-time";

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe("oneAtATime", () => {
  it("runs queued pieces in order, one per pass of the event loop, so other callbacks run between them", async () => {
    const log: string[] = [];
    const pieces = [1, 2, 3].map((n) =>
      oneAtATime(() => {
        busy(5);
        log.push(`piece ${n}`);
        // What arrives while a piece runs (a request's I/O callback) is served before the next piece.
        if (n === 1) setImmediate(() => log.push("other"));
        return n;
      }),
    );
    expect(await Promise.all(pieces)).toEqual([1, 2, 3]);
    expect(log).toEqual(["piece 1", "other", "piece 2", "piece 3"]);
  });

  it("hands a piece's error to its caller and keeps serving the queue", async () => {
    const failing = oneAtATime(() => {
      throw new Error("bad body");
    });
    const next = oneAtATime(() => "fine");
    await expect(failing).rejects.toThrow("bad body");
    expect(await next).toBe("fine");
  });
});
