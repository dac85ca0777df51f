import { afterAll, beforeAll, expect, it } from "vitest";
import { workflows } from "@/lib/jobs/workflows";
import { startServer, type TestServer } from "../harness/server";

// The Inngest serve() endpoint of a server configured for Inngest (INNGEST_DEV=1; the dev server itself cannot be
// installed here): it must answer Inngest's introspection with every workflow registered.
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { INNGEST_DEV: "1", INNGEST_BASE_URL: "http://127.0.0.1:9" } });
});
afterAll(async () => {
  await server?.stop();
});

it("GET /api/inngest introspects every workflow and its failure handler", async () => {
  const res = await fetch(`${server.baseUrl}/api/inngest`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown>;
  // Each function's onFailure (the "failed for good" log line) is registered by Inngest as a function of its own.
  expect(body.function_count).toBe(2 * workflows.length);
  expect(body.mode).toBe("dev");
});
