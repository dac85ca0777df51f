import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its wasm and extension bundles from its own package directory at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // Type errors are caught by `npm test` (tsc over the whole repo, tests included) before a build is ever made.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
