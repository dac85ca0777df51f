import type { NextConfig } from "next";
import { env } from "./lib/config/env";

const nextConfig: NextConfig = {
  // PGlite loads its wasm and extension bundles from its own package directory at run time; the metrics and log
  // packages are loaded by the app server too, and pino starts its transports in worker threads by file name, as
  // piscina does the body-decoding threads (lib/http/body-pool.ts).
  serverExternalPackages: ["@electric-sql/pglite", "prom-client", "pino", "pino-pretty", "piscina"],
  poweredByHeader: false,
  // No redirects under /api/v1 (api-contract v1.1): a trailing slash reaches the routes instead of a 308.
  skipTrailingSlashRedirect: true,
  // gzip in the app server (read when the server starts, no rebuild needed). Behind a proxy that compresses, turn it
  // off with HTTP_COMPRESSION=false: gzipping every small API reply costs ~15–25 % of single-post ingest throughput.
  compress: env().HTTP_COMPRESSION,
  // Type errors are caught by `npm test` (tsc over the whole repo, tests included) before a build is ever made.
  typescript: { ignoreBuildErrors: true },
  // forbidden() from next/navigation: a dashboard page the user's role may not open answers 403 (app/(dashboard)/forbidden.tsx).
  experimental: { authInterrupts: true },
  // Public share pages: not indexed, and the token in their URL is never sent on in a Referer.
  async headers() {
    return [
      {
        source: "/share/:path*",
        headers: [
          { key: "X-Robots-Tag", value: "noindex" },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
    ];
  },
};

export default nextConfig;
