import net from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newAccount, useServer } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";

// Fenceline's own server (lib/server/app-server.ts) keeps what `next start` did on SIGTERM: requests in flight are
// answered, then the process exits 0.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  useServer(server);
});
afterAll(async () => {
  useServer(null);
  await server?.stop();
});

// The client keeps its side open until the answer (as curl and every HTTP client do): a client that half-closes
// after its body gets no answer from Node's server (httpAllowHalfOpen is false), on any database. That, not Postgres,
// was why this test once failed there.
it("SIGTERM: a request in flight is answered, then the process exits 0 and no longer listens", async () => {
  const account = await newAccount();
  const trackable = await account.api("POST", "/trackables", { name: "Van" });
  const body = JSON.stringify({ latitude: 52.5, longitude: 13.4 });
  // A request whose headers the server has read and whose body is still on its way when SIGTERM arrives.
  const url = new URL(server.baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise((r) => socket.once("connect", r));
  let answer = "";
  socket.on("data", (d: Buffer) => (answer += d.toString()));
  const ended = new Promise((r) => socket.once("close", r));
  socket.write(
    `POST /api/v1/trackables/${trackable.body.id}/locations HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `Authorization: Bearer ${account.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      "Connection: close\r\nExpect: 100-continue\r\n\r\n",
  );
  // The server has read the headers (the request is under way) once it asks for the body.
  for (let i = 0; !answer.includes("100 Continue"); i++) {
    if (i > 600) throw new Error(`no 100 Continue: ${answer}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  socket.write(body.slice(0, 10));
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
  server.process.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 300));
  socket.write(body.slice(10));
  await ended;
  expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  expect(await exited).toBe(0);
  await expect(fetch(`${server.baseUrl}/api/health`)).rejects.toThrow();
});
