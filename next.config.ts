import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its wasm and extension bundles from its own package directory at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // Type errors are caught by `npm test` (tsc over the whole repo, tests included) before a build is ever made.
  typescript: { ignoreBuildErrors: true },
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
