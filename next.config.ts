import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  // NEXT_DIST_DIR lets several builds live side by side (tests, benchmarks); default .next
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
