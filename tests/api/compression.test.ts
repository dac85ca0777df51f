import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../harness/client";
import { startServer, type TestServer } from "../harness/server";

// HTTP_COMPRESSION: the app server gzips by default; with false it leaves compression to a proxy in front of it.

function contentEncoding(base: string, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers["content-encoding"]));
    });
    req.on("error", reject);
  });
}

let uncompressed: TestServer;
beforeAll(async () => {
  uncompressed = await startServer({ env: { HTTP_COMPRESSION: "false" } });
});
afterAll(async () => uncompressed?.stop());

describe("HTTP_COMPRESSION", () => {
  it("gzips by default", async () => {
    expect(await contentEncoding(baseUrl(), "/api/v1/openapi.json")).toBe("gzip");
  });

  it("sends identity bodies when false", async () => {
    expect(await contentEncoding(uncompressed.baseUrl, "/api/v1/openapi.json")).toBeUndefined();
  });
});
