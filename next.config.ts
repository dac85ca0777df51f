import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its wasm and extension bundles from its own package directory at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
