import http from "node:http";
import path from "node:path";

// Plain Node with no app imports: the CLI, the test harness and the Playwright specs call the operator endpoint with it.

/** The Unix socket (mode 0600) in the data directory on which the app server answers the operator endpoint. */
export const adminSocketPath = (dataDir: string): string => path.join(dataDir, "admin.sock");

export interface AdminResponse {
  status: number;
  body: unknown;
  text: string;
}

/** One call to the operator endpoint (`path` under /api/internal) over the admin socket, with the admin token. */
export function adminRequest(socketPath: string, token: string, method: string, urlPath: string, body?: unknown): Promise<AdminResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath,
        method,
        path: `/api/internal${urlPath}`,
        headers: {
          Host: "localhost",
          Authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = null;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}
