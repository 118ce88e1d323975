import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
